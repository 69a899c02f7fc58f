import type { Coin } from '@p2p/contract';
import { sql } from 'kysely';
import type { Tx } from '../../db/client.ts';
import type { TransferRow, WalletRow } from './repo.ts';

/**
 * The SQL of deposits found on chain (DECISIONS §17, chain-deposits.ts) on the wallets module's `wallets` and
 * `transfers` tables. A watcher's deposit is an external DEPOSIT row with `required_confirmations` set; the
 * partial unique index on (coin, txid, chain_index) is the same one an operator's credit goes through, so an
 * output has one row whoever saw it first. Heights are block numbers; amounts decimal strings.
 */

/** The watcher's open deposits: confirming (PENDING) or recorded under the minimum (BELOW_MINIMUM). */
const OPEN = ['PENDING', 'BELOW_MINIMUM'] as const;

/**
 * Wallets of `coin` whose deposit address is one of `addresses` (canonical spelling). One array parameter, so
 * the statement's text is the same however many addresses a block pays.
 */
export async function walletsByAddresses(
  tx: Tx,
  coin: Coin,
  addresses: readonly string[],
): Promise<WalletRow[]> {
  if (addresses.length === 0) return [];
  const r = await sql<WalletRow>`select * from wallets
      where coin = ${coin} and address = any(${[...addresses]}::text[])`.execute(tx);
  return r.rows;
}

/**
 * Wallets of `coin` whose destination tag (DECISIONS §17: XRP, one per wallet) is one of `tags`, with the tag.
 */
export async function walletsByDestinationTags(
  tx: Tx,
  coin: Coin,
  tags: readonly number[],
): Promise<{ destinationTag: number; wallet: WalletRow }[]> {
  if (tags.length === 0) return [];
  const r = await sql<WalletRow>`select * from wallets
      where coin = ${coin} and destination_tag = any(${[...tags]}::bigint[])`.execute(tx);
  return r.rows.flatMap((w) =>
    w.destination_tag === null ? [] : [{ destinationTag: Number(w.destination_tag), wallet: w }],
  );
}

/** What the watcher found of one output paid to a member's wallet. */
export interface SeenDeposit {
  coin: Coin;
  /** The address the member deposits to as their wallet shows it (XRP: the platform account). */
  address: string;
  txid: string;
  index: number;
  /** Ledger quantity, a decimal string > 0. */
  amount: string;
  /** The chain's own unit, a decimal integer string > 0. */
  chainAmount: string;
  blockHeight: number;
  blockHash: string;
  requiredConfirmations: number;
  belowMinimum: boolean;
}

/**
 * Records output `d` on wallet `w` as seen in block `d.blockHeight`: a new PENDING (or BELOW_MINIMUM) row with
 * one confirmation, or, for a row the watcher recorded before, its new block (after a reorg moved it; a DROPPED
 * row whose transaction came back confirms again). Answers the row as it now is, or undefined when the output
 * belongs to a row this must not touch: credited already (by the watcher or an operator), or recorded with
 * another wallet or amount (the caller logs it).
 */
export async function upsertSeenDeposit(
  tx: Tx,
  w: WalletRow,
  d: SeenDeposit,
): Promise<TransferRow | undefined> {
  const status = d.belowMinimum ? 'BELOW_MINIMUM' : 'PENDING';
  return tx
    .insertInto('transfers')
    .values({
      wallet_id: w.id,
      member_id: w.member_id,
      coin: d.coin,
      type: 'DEPOSIT',
      dest_type: 'EXTERNAL',
      status,
      address: d.address,
      amount: d.amount,
      txid: d.txid,
      chain_index: d.index,
      confirmations: 1,
      required_confirmations: d.requiredConfirmations,
      block_height: d.blockHeight,
      block_hash: d.blockHash,
      chain_amount: d.chainAmount,
    })
    .onConflict((oc) =>
      oc
        .columns(['coin', 'txid', 'chain_index'])
        .where('type', '=', 'DEPOSIT')
        .where('dest_type', '=', 'EXTERNAL')
        .doUpdateSet({
          block_height: d.blockHeight,
          block_hash: d.blockHash,
          fork_height: null,
          confirmations: 1,
          status: sql`case when transfers.status = 'DROPPED' then ${status} else transfers.status end`,
        })
        .where('transfers.status', 'in', [...OPEN, 'DROPPED'])
        .where('transfers.required_confirmations', 'is not', null)
        .where('transfers.wallet_id', '=', w.id)
        .where('transfers.chain_amount', '=', d.chainAmount),
    )
    .returningAll()
    .executeTakeFirst();
}

/** The external deposit row of output (coin, txid, index), if any. */
export async function depositOfOutput(
  tx: Tx,
  coin: Coin,
  txid: string,
  index: number,
): Promise<TransferRow | undefined> {
  return tx
    .selectFrom('transfers')
    .selectAll()
    .where('coin', '=', coin)
    .where('txid', '=', txid)
    .where('chain_index', '=', index)
    .where('type', '=', 'DEPOSIT')
    .where('dest_type', '=', 'EXTERNAL')
    .executeTakeFirst();
}

/**
 * Sets the confirmations of the coin's open deposits in the chain for a chain whose newest block is `height`:
 * height - block + 1, never above the deposit's required count (it stops counting there). Only rows whose figure
 * changes are written (each write is a live event).
 */
export async function refreshConfirmations(tx: Tx, coin: Coin, height: number): Promise<void> {
  await sql`update transfers
      set confirmations = least(required_confirmations, ${height}::bigint - block_height + 1)
      where coin = ${coin} and type = 'DEPOSIT' and dest_type = 'EXTERNAL'
        and status in ('PENDING', 'BELOW_MINIMUM') and block_height is not null
        and confirmations is distinct from least(required_confirmations, ${height}::bigint - block_height + 1)`.execute(
    tx,
  );
}

/** The coin's PENDING deposits with their required confirmations at chain height `height`, locked, by id. */
export async function lockDueDeposits(tx: Tx, coin: Coin, height: number): Promise<TransferRow[]> {
  const r = await sql<TransferRow>`select * from transfers
      where coin = ${coin} and type = 'DEPOSIT' and dest_type = 'EXTERNAL' and status = 'PENDING'
        and block_height is not null and ${height}::bigint - block_height + 1 >= required_confirmations
      order by id for update`.execute(tx);
  return r.rows;
}

/** Marks locked PENDING deposit `id` COMPLETED with its required confirmations; false when it was not PENDING. */
export async function completeDeposit(tx: Tx, id: number): Promise<boolean> {
  const r = await sql`update transfers set status = 'COMPLETED', completed_at = now(),
        confirmations = required_confirmations
      where id = ${id} and status = 'PENDING'`.execute(tx);
  return Number(r.numAffectedRows ?? 0) === 1;
}

/**
 * The chain forked at `forkHeight`: the coin's open deposits in blocks above it are out of the chain until seen
 * again (block null, 0 confirmations, fork_height remembered). Returns how many.
 */
export async function unconfirmDepositsAbove(tx: Tx, coin: Coin, forkHeight: number): Promise<number> {
  const r = await sql`update transfers
      set block_height = null, block_hash = null, confirmations = 0,
        fork_height = least(coalesce(fork_height, ${forkHeight}::bigint), ${forkHeight}::bigint)
      where coin = ${coin} and type = 'DEPOSIT' and dest_type = 'EXTERNAL'
        and status in ('PENDING', 'BELOW_MINIMUM') and block_height > ${forkHeight}::bigint`.execute(tx);
  return Number(r.numAffectedRows ?? 0);
}

/** Credited chain deposits of `coin` in blocks above `forkHeight` (a reorg deeper than their confirmations). */
export async function creditedDepositsAbove(tx: Tx, coin: Coin, forkHeight: number): Promise<TransferRow[]> {
  const r = await sql<TransferRow>`select * from transfers
      where coin = ${coin} and type = 'DEPOSIT' and dest_type = 'EXTERNAL' and status = 'COMPLETED'
        and required_confirmations is not null and block_height > ${forkHeight}::bigint
      order by id limit 100`.execute(tx);
  return r.rows;
}

/**
 * The coin's deposits that left the chain at a fork and are not back now that the chain reached `height`, the
 * fork plus their required confirmations, become DROPPED (never credited). Returns their ids.
 */
export async function dropLostDeposits(tx: Tx, coin: Coin, height: number): Promise<number[]> {
  const r = await sql<{ id: number }>`update transfers set status = 'DROPPED'
      where coin = ${coin} and type = 'DEPOSIT' and dest_type = 'EXTERNAL'
        and status in ('PENDING', 'BELOW_MINIMUM') and block_height is null and fork_height is not null
        and ${height}::bigint >= fork_height + required_confirmations
      returning id`.execute(tx);
  return r.rows.map((x) => Number(x.id));
}

/**
 * Inserts the COMPLETED deposit of output (coin, txid, index) that an operator assigned from the unmatched queue
 * (DECISIONS §17); undefined when that output already has a deposit row (credited another way).
 */
export async function insertAssignedDeposit(
  tx: Tx,
  w: WalletRow,
  d: Omit<SeenDeposit, 'blockHash' | 'belowMinimum'>,
): Promise<TransferRow | undefined> {
  return tx
    .insertInto('transfers')
    .values({
      wallet_id: w.id,
      member_id: w.member_id,
      coin: d.coin,
      type: 'DEPOSIT',
      dest_type: 'EXTERNAL',
      status: 'COMPLETED',
      address: d.address,
      amount: d.amount,
      txid: d.txid,
      chain_index: d.index,
      confirmations: d.requiredConfirmations,
      required_confirmations: d.requiredConfirmations,
      block_height: d.blockHeight,
      chain_amount: d.chainAmount,
      completed_at: sql<Date>`now()`,
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
