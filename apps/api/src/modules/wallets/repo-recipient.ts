import type { Coin } from '@p2p/contract';
import type { DbOrTx } from '../../db/client.ts';

/** An ACTIVE wallet's owner as the 내부 지갑 review names them. */
export interface RecipientRow {
  member_id: number;
  nickname: string;
}

/**
 * The owner of the ACTIVE wallet of `coin` at deposit `address` (normalized), or for XRP with `tag` the
 * wallet with that destination tag; undefined when none. Reads `members` (identity module) in the same
 * statement for the nickname: the lookup answers one name, and a second round trip would only add latency.
 */
export async function activeRecipient(
  db: DbOrTx,
  coin: Coin,
  by: { address: string } | { tag: number },
): Promise<RecipientRow | undefined> {
  let q = db
    .selectFrom('wallets as w')
    .innerJoin('members as m', 'm.id', 'w.member_id')
    .select(['w.member_id', 'm.nickname'])
    .where('w.coin', '=', coin)
    .where('w.status', '=', 'ACTIVE');
  q = 'tag' in by ? q.where('w.destination_tag', '=', by.tag) : q.where('w.address', '=', by.address);
  return q.executeTakeFirst();
}
