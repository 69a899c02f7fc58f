import type { Coin } from '@p2p/contract';
import { type InsertObject, type Selectable, sql } from 'kysely';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { DB } from '../../db/schema.ts';
import type { TransfersTable, WalletsTable } from './tables.ts';

/**
 * The SQL of the wallets module's tables (`wallets`, `transfers`, `derivation_counters`) used by service.ts
 * and deliveries.ts. Other modules reach these tables only through the module's exported functions
 * (service.ts findActiveWallet, ownActiveWallet; deliveries.ts recordDelivery). Amounts are decimal strings.
 */

export type WalletRow = Selectable<WalletsTable>;
export type TransferRow = Selectable<TransfersTable>;

/** The member's ACTIVE wallet of `coin`, or undefined (DECISIONS §5: one wallet per member and coin). */
export async function findActiveWallet(
  db: DbOrTx,
  memberId: number,
  coin: Coin,
): Promise<WalletRow | undefined> {
  return db
    .selectFrom('wallets')
    .selectAll()
    .where('member_id', '=', memberId)
    .where('coin', '=', coin)
    .where('status', '=', 'ACTIVE')
    .executeTakeFirst();
}

/** True when the member has a wallet of `coin` in any status. */
export async function hasWallet(db: DbOrTx, memberId: number, coin: Coin): Promise<boolean> {
  const row = await db
    .selectFrom('wallets')
    .select('id')
    .where('member_id', '=', memberId)
    .where('coin', '=', coin)
    .executeTakeFirst();
  return row !== undefined;
}

/** Takes the coin's next derivation index under its counter row lock (held until the transaction ends). */
export async function takeDerivationIndex(tx: Tx, coin: Coin): Promise<number> {
  const counter = await tx
    .updateTable('derivation_counters')
    .set((eb) => ({ next_index: eb('next_index', '+', 1) }))
    .where('coin', '=', coin)
    .returning('next_index')
    .executeTakeFirstOrThrow();
  return counter.next_index - 1;
}

/**
 * Inserts a wallet at derivation `index` with its deposit `address` (and its XRP destination tag); undefined
 * when any unique key refused it: (member, coin) when a concurrent call won, (coin, address|index|tag) otherwise.
 */
export async function insertWallet(
  tx: Tx,
  w: { memberId: number; coin: Coin; address: string; index: number; destinationTag: number | null },
): Promise<WalletRow | undefined> {
  return tx
    .insertInto('wallets')
    .values({
      member_id: w.memberId,
      coin: w.coin,
      address: w.address,
      derivation_index: w.index,
      destination_tag: w.destinationTag,
    })
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
}

/**
 * The member's wallets with their available and escrow balances (base-unit NUMERIC strings, null when the
 * account has no row yet), in order of creation. Joins the ledger's `ledger_accounts` in the same statement:
 * the wallet tab is read often and a per-wallet balance call would add a round trip per coin.
 */
export async function walletsWithBalances(db: DbOrTx, memberId: number) {
  return db
    .selectFrom('wallets as w')
    .leftJoin('ledger_accounts as a', (j) =>
      j
        .onRef('a.member_id', '=', 'w.member_id')
        .onRef('a.coin', '=', 'w.coin')
        .on('a.kind', '=', 'available'),
    )
    .leftJoin('ledger_accounts as e', (j) =>
      j.onRef('e.member_id', '=', 'w.member_id').onRef('e.coin', '=', 'w.coin').on('e.kind', '=', 'escrow'),
    )
    .select([
      'w.id',
      'w.coin',
      'w.address',
      'w.destination_tag',
      'w.status',
      'w.created_at',
      'a.balance as available',
      'e.balance as escrow',
    ])
    .where('w.member_id', '=', memberId)
    .orderBy('w.id')
    .execute();
}

/** The member's wallet `walletId`, or undefined (also when it is another member's). */
export async function walletOfMember(
  db: DbOrTx,
  memberId: number,
  walletId: number,
): Promise<WalletRow | undefined> {
  return db
    .selectFrom('wallets')
    .selectAll()
    .where('id', '=', walletId)
    .where('member_id', '=', memberId)
    .executeTakeFirst();
}

/** The wallet owning deposit `address` of `coin` (normalized), or undefined. */
export async function walletByAddress(tx: Tx, coin: Coin, address: string): Promise<WalletRow | undefined> {
  return tx
    .selectFrom('wallets')
    .selectAll()
    .where('coin', '=', coin)
    .where('address', '=', address)
    .executeTakeFirst();
}

/** The XRP wallet (any status) with destination tag `tag`, or undefined (DECISIONS §17). */
export async function walletByDestinationTag(db: DbOrTx, tag: number): Promise<WalletRow | undefined> {
  return db
    .selectFrom('wallets')
    .selectAll()
    .where('coin', '=', 'XRP')
    .where('destination_tag', '=', tag)
    .executeTakeFirst();
}

/** The key of an on-chain deposit: the chain's transaction id and output (or event) index. */
export interface ChainOutput {
  coin: Coin;
  txid: string;
  index: number;
}

/**
 * Inserts the COMPLETED external DEPOSIT transfer of chain output `out` on wallet `w`, paid to `address`;
 * undefined when that output was already credited (the partial unique index on coin + txid + chain_index).
 */
export async function insertDepositTransfer(
  tx: Tx,
  w: WalletRow,
  out: ChainOutput,
  amount: string,
  address: string,
): Promise<TransferRow | undefined> {
  return tx
    .insertInto('transfers')
    .values({
      wallet_id: w.id,
      member_id: w.member_id,
      coin: out.coin,
      type: 'DEPOSIT',
      dest_type: 'EXTERNAL',
      status: 'COMPLETED',
      address,
      amount,
      txid: out.txid,
      chain_index: out.index,
      completed_at: new Date(),
    })
    .onConflict((oc) =>
      oc
        .columns(['coin', 'txid', 'chain_index'])
        .where('type', '=', 'DEPOSIT')
        .where('dest_type', '=', 'EXTERNAL')
        .doNothing(),
    )
    .returningAll()
    .executeTakeFirst();
}

/** The external DEPOSIT transfer that credited chain output `out` (it must exist). */
export async function depositTransferOf(tx: Tx, out: ChainOutput): Promise<TransferRow> {
  return tx
    .selectFrom('transfers')
    .selectAll()
    .where('coin', '=', out.coin)
    .where('txid', '=', out.txid)
    .where('chain_index', '=', out.index)
    .where('type', '=', 'DEPOSIT')
    .where('dest_type', '=', 'EXTERNAL')
    .executeTakeFirstOrThrow();
}

/** Inserts one transfer row as given; returns its id. */
export async function insertTransfer(tx: Tx, values: InsertObject<DB, 'transfers'>): Promise<number> {
  const row = await tx.insertInto('transfers').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Links transfer `id` to its other side `counterpartId` (the two rows of an internal movement). */
export async function linkCounterpart(tx: Tx, id: number, counterpartId: number): Promise<void> {
  await tx.updateTable('transfers').set({ counterpart_id: counterpartId }).where('id', '=', id).execute();
}

/** The deposit address of wallet `walletId` (it must exist). */
export async function walletAddress(tx: Tx, walletId: number): Promise<string> {
  const w = await tx
    .selectFrom('wallets')
    .select('address')
    .where('id', '=', walletId)
    .executeTakeFirstOrThrow();
  return w.address;
}

/** now() of the database, for a transfer's completed_at written in the same statement. */
export const dbNow = () => sql<Date>`now()`;

/** Disables every wallet of a member (a closed membership, DECISIONS §19): internal transfers to them stop. */
export async function disableWalletsOf(tx: Tx, memberId: number): Promise<void> {
  await tx.updateTable('wallets').set({ status: 'DISABLED' }).where('member_id', '=', memberId).execute();
}
