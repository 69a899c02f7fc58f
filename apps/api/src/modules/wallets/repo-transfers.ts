import type { Coin } from '@p2p/contract';
import type { InsertObject } from 'kysely';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { DB } from '../../db/schema.ts';
import type { TransferRow, WalletRow } from './repo.ts';

/**
 * The SQL of member transfers (transfers.ts) on the wallets module's `wallets` and `transfers` tables (the
 * operator's withdrawal queue moved to modules/withdrawals). Amounts are decimal strings.
 */

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
