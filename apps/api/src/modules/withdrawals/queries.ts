import type { Coin } from '@p2p/contract';
import { sql } from 'kysely';
import type { DbOrTx } from '../../db/client.ts';

/**
 * Read models of the withdrawals module: members' liabilities per coin and the platform's holdings as the
 * ledger says (DECISIONS §4, §18). Reads the ledger's accounts and the wallets module's `wallets`.
 */

/**
 * What the platform owes members per coin, ledger base units: every member account (available + escrow) and
 * the withdrawals accepted but not yet paid (withdrawal_pending). Read as minus the other platform accounts
 * (chain, fees, network_fee): every entry sums to zero per coin (DECISIONS §4, what the ledger check verifies),
 * so the few platform rows give the figure instead of a pass over every member's account (issue 27).
 */
export async function liabilitiesByCoin(db: DbOrTx): Promise<Map<Coin, bigint>> {
  const r = await sql<{
    coin: Coin;
    total: string;
  }>`select coin, (-sum(balance) * 100000000)::numeric(78, 0)::text
      as total from ledger_accounts where member_id is null and kind <> 'withdrawal_pending' group by coin`.execute(
    db,
  );
  return new Map(r.rows.map((x) => [x.coin, BigInt(x.total)]));
}

/** What the ledger says the platform holds on chain per coin (minus the `chain:<COIN>` balance), base units. */
export async function ledgerHoldings(db: DbOrTx): Promise<Map<Coin, bigint>> {
  const r = await sql<{
    coin: Coin;
    total: string;
  }>`select coin, (-sum(balance) * 100000000)::numeric(78, 0)::text
      as total from ledger_accounts where kind = 'chain' group by coin`.execute(db);
  return new Map(r.rows.map((x) => [x.coin, BigInt(x.total)]));
}

/** The deposit addresses of `coin`'s wallets (the addresses the platform's coins may sit at). */
export async function depositAddresses(db: DbOrTx, coin: Coin): Promise<string[]> {
  const rows = await db.selectFrom('wallets').select('address').where('coin', '=', coin).execute();
  return [...new Set(rows.map((r) => r.address))];
}

/** External withdrawals in one state: how many and their amounts' sum in ledger base units. */
export interface QueueTotal {
  count: number;
  units: bigint;
}

/**
 * External withdrawals per coin and state (PENDING, APPROVED, BROADCAST, FAILED): count and the sum of their
 * amounts, ledger base units (DECISIONS §18; the console's custody panel). States without one are absent.
 */
export async function withdrawalTotals(db: DbOrTx): Promise<Map<string, QueueTotal>> {
  const r = await sql<{
    coin: Coin;
    status: string;
    n: string;
    total: string;
  }>`select coin, status, count(*)::text as n, (sum(amount) * 100000000)::numeric(78, 0)::text as total
      from transfers where type = 'WITHDRAW' and dest_type = 'EXTERNAL'
        and status in ('PENDING', 'APPROVED', 'BROADCAST', 'FAILED')
      group by coin, status`.execute(db);
  return new Map(
    r.rows.map((x) => [`${x.coin}:${x.status}`, { count: Number(x.n), units: BigInt(x.total) }]),
  );
}
