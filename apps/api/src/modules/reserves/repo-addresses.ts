import type { Coin } from '@p2p/contract';
import { sql } from 'kysely';
import type { DbOrTx } from '../../db/client.ts';

/** A platform address whose key the signer holds, at `path` ("c/i" under the coin's account key). */
export interface KeyedAddress {
  address: string;
  path: string;
}

/**
 * The member deposit addresses and platform outputs of `coin` that may hold coins (DECISIONS §18, §20): BTC
 * every address with an output not known spent (deposits 0/i, change 1/n); ETH and TRX every deposit address
 * with a credited deposit after its newest CONFIRMED sweep (a sweep in flight may not have moved the coins
 * yet), and TRX deposit outputs not yet swept. An address listed that holds nothing costs one node read and
 * adds 0; one left out would under-count, so the lists err on the side of inclusion. Ordered by address.
 */
export async function addressesHoldingFunds(db: DbOrTx, coin: Coin): Promise<KeyedAddress[]> {
  const r = await sql<KeyedAddress>`
    select address, path from chain_outputs where coin = ${coin} and spent_by is null
    union
    select w.address, '0/' || w.derivation_index as path from wallets w
    where w.coin = ${coin} and ${coin} not in ('BTC', 'XRP') and exists (
      select 1 from transfers t where t.wallet_id = w.id and t.type = 'DEPOSIT' and t.dest_type = 'EXTERNAL'
        and t.status = 'COMPLETED'
        and t.id > coalesce((select max(s.through_transfer_id) from chain_sweeps s
          where s.wallet_id = w.id and s.status = 'CONFIRMED'), 0))
    order by address`.execute(db);
  return r.rows;
}
