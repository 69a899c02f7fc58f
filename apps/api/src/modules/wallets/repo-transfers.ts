import type { Coin, WithdrawalStatus } from '@p2p/contract';
import type { InsertObject, Updateable } from 'kysely';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import type { DB } from '../../db/schema.ts';
import type { TransferRow, WalletRow } from './repo.ts';
import type { TransfersTable } from './tables.ts';

/**
 * The SQL of member transfers and the operator's withdrawal queue (transfers.ts, withdrawals.ts) on the
 * wallets module's `wallets` and `transfers` tables. Amounts are decimal strings.
 */

/** An external withdrawal row with its member's login id (the operator's queue). */
export type WithdrawalRow = TransferRow & { login_id: string };

/** One page of a wallet's transfers, newest first, below id `beforeId` when given; `limit` rows. */
export async function transfersOfWallet(
  db: DbOrTx,
  walletId: number,
  beforeId: number | undefined,
  limit: number,
): Promise<TransferRow[]> {
  let query = db.selectFrom('transfers').selectAll().where('wallet_id', '=', walletId);
  if (beforeId !== undefined) query = query.where('id', '<', beforeId);
  return query.orderBy('id', 'desc').limit(limit).execute();
}

/** How many transfers a wallet has. */
export async function countTransfersOfWallet(db: DbOrTx, walletId: number): Promise<number> {
  const count = await db
    .selectFrom('transfers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('wallet_id', '=', walletId)
    .executeTakeFirstOrThrow();
  return Number(count.n);
}

/** The ACTIVE wallet of `coin` at deposit `address` (normalized), or undefined: an internal transfer's target. */
export async function activeWalletByAddress(
  tx: Tx,
  coin: Coin,
  address: string,
): Promise<WalletRow | undefined> {
  return tx
    .selectFrom('wallets')
    .selectAll()
    .where('coin', '=', coin)
    .where('address', '=', address)
    .where('status', '=', 'ACTIVE')
    .executeTakeFirst();
}

/** Inserts one transfer row and returns it whole. */
export async function insertTransferRow(tx: Tx, values: InsertObject<DB, 'transfers'>): Promise<TransferRow> {
  return tx.insertInto('transfers').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Links transfer `id` to its other side and returns the updated row. */
export async function linkCounterpartRow(tx: Tx, id: number, counterpartId: number): Promise<TransferRow> {
  return tx
    .updateTable('transfers')
    .set({ counterpart_id: counterpartId })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * External withdrawals with their member's login id. Joins identity's `members` in the same statement: the
 * operator's queue shows who asked on every row, and a lookup per row would be a round trip each.
 */
function externalWithdrawals(db: DbOrTx) {
  return db
    .selectFrom('transfers as t')
    .innerJoin('members as m', 'm.id', 't.member_id')
    .selectAll('t')
    .select('m.login_id')
    .where('t.type', '=', 'WITHDRAW')
    .where('t.dest_type', '=', 'EXTERNAL');
}

/** One page of external withdrawals of `status`, oldest first, after id `afterId` when given. */
export async function withdrawalsOfStatus(
  db: Db,
  status: WithdrawalStatus,
  afterId: number | undefined,
  limit: number,
): Promise<WithdrawalRow[]> {
  let query = externalWithdrawals(db).where('t.status', '=', status);
  if (afterId !== undefined) query = query.where('t.id', '>', afterId);
  return query.orderBy('t.id').limit(limit).execute();
}

/** How many external withdrawals are in `status`. */
export async function countWithdrawals(db: Db, status: WithdrawalStatus): Promise<number> {
  const count = await db
    .selectFrom('transfers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('type', '=', 'WITHDRAW')
    .where('dest_type', '=', 'EXTERNAL')
    .where('status', '=', status)
    .executeTakeFirstOrThrow();
  return Number(count.n);
}

/** An external withdrawal under its row lock, or undefined. */
export async function lockWithdrawal(tx: Tx, id: number): Promise<TransferRow | undefined> {
  return tx
    .selectFrom('transfers')
    .selectAll()
    .where('id', '=', id)
    .where('type', '=', 'WITHDRAW')
    .where('dest_type', '=', 'EXTERNAL')
    .forUpdate()
    .executeTakeFirst();
}

/** Writes the operator's decision on a locked withdrawal. */
export async function updateWithdrawal(tx: Tx, id: number, set: Updateable<TransfersTable>): Promise<void> {
  await tx.updateTable('transfers').set(set).where('id', '=', id).execute();
}

/** One withdrawal with its member's login id (it must exist). */
export async function withdrawalById(tx: Tx, id: number): Promise<WithdrawalRow> {
  return externalWithdrawals(tx).where('t.id', '=', id).executeTakeFirstOrThrow();
}
