import type { Coin } from '@p2p/contract';
import { sql } from 'kysely';
import type { DbOrTx, Tx } from '../../db/client.ts';

/** One received amount that may still be on hold (DECISIONS §19). */
export interface ReceivedRow {
  coin: Coin;
  amount: string;
  completed_at: Date;
  /** The receiver's sign-up time: a receipt in their first 30 days is held longer. */
  member_since: Date;
}

/**
 * The member's completed internal deposits (a purchase's delivery or another member's transfer) since `since`,
 * of one coin or all. Reads `members.created_at` beside them (identity's table) in the same statement: the
 * wallet view and the withdrawal's check ask this on every call, and a second round trip buys nothing.
 */
export async function receivedSince(
  db: DbOrTx,
  memberId: number,
  since: Date,
  coin?: Coin,
): Promise<ReceivedRow[]> {
  let q = db
    .selectFrom('transfers as t')
    .innerJoin('members as m', 'm.id', 't.member_id')
    .select(['t.coin', 't.amount', 't.completed_at', 'm.created_at as member_since'])
    .where('t.member_id', '=', memberId)
    .where('t.type', '=', 'DEPOSIT')
    .where('t.dest_type', '=', 'INTERNAL')
    .where('t.status', '=', 'COMPLETED')
    .where('t.completed_at', '>', since);
  if (coin) q = q.where('t.coin', '=', coin);
  const rows = await q.execute();
  return rows.flatMap((r) => (r.completed_at ? [{ ...r, completed_at: r.completed_at }] : []));
}

/**
 * Locks the wallet row for the rest of the transaction: two external withdrawals of one wallet take their
 * turns, so the second sees the first's ledger entry before its hold check (DECISIONS §19).
 */
export async function lockWalletRow(tx: Tx, walletId: number): Promise<void> {
  await sql`select id from wallets where id = ${walletId} for update`.execute(tx);
}

/** When the member signed up (members.created_at, identity's table), or undefined for no such member. */
export async function memberSince(db: DbOrTx, memberId: number): Promise<Date | undefined> {
  const r = await db.selectFrom('members').select('created_at').where('id', '=', memberId).executeTakeFirst();
  return r?.created_at;
}
