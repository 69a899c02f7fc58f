import { type Coin, fromUnits, toUnits } from '@p2p/contract';
import type { Tx } from '../../db/client.ts';
import { qty } from '../../db/numeric.ts';
import { movements, post } from '../../ledger/index.ts';
import { notifyDepositCredited } from '../notifications/index.ts';
import type { TransferRow, WalletRow } from './repo.ts';
import {
  completeDeposit,
  creditedDepositsAbove,
  depositOfOutput,
  dropLostDeposits,
  insertAssignedDeposit,
  lockDueDeposits,
  refreshConfirmations,
  type SeenDeposit,
  unconfirmDepositsAbove,
  upsertSeenDeposit,
  walletsByAddresses,
  walletsByDestinationTags,
} from './repo-chain.ts';
import { shownAddress } from './service.ts';

export type { SeenDeposit } from './repo-chain.ts';
export { walletsByAddresses, walletsByDestinationTags };

/**
 * The wallets module's side of deposits found on chain (DECISIONS §17): the deposit watcher (modules/deposits)
 * calls these inside the transaction that applies one block, so a deposit's row, its credit, its ledger entry,
 * the member's notification and live events commit with the block's cursor move or not at all.
 */

/** What happened to a seen output: recorded or moved (`row`), or left alone because `existing` owns it. */
export type SeenOutcome = { row: TransferRow } | { row: null; existing: TransferRow | undefined };

/**
 * Records output `d` paid to wallet `w` in the block being applied (see repo-chain.ts upsertSeenDeposit): a new
 * row PENDING (BELOW_MINIMUM under the coin's minimum) with 1 confirmation, or the new block of a row seen before.
 * An output credited already (by the watcher or an operator) or recorded for another wallet or amount is left as
 * it is and answered in `existing`.
 */
export async function recordSeenDeposit(
  tx: Tx,
  w: WalletRow,
  d: Omit<SeenDeposit, 'address'>,
): Promise<SeenOutcome> {
  const row = await upsertSeenDeposit(tx, w, { ...d, address: shownAddress(w) });
  if (row) return { row };
  return { row: null, existing: await depositOfOutput(tx, d.coin, d.txid, d.index) };
}

/**
 * Settles the coin's deposits for a chain whose newest block is `height`: confirmations updated, every PENDING
 * deposit with its required count credited (COMPLETED, ledger entry chain -> the member's available under the
 * ref of any credit of that output, `deposit:<COIN>:<txid>:<index>`, a DEPOSIT_CREDITED notification), and the
 * deposits that left the chain at a fork and are not back by fork + required count DROPPED. Returns the rows
 * credited and the ids dropped.
 */
export async function settleChainDeposits(
  tx: Tx,
  coin: Coin,
  height: number,
): Promise<{ credited: TransferRow[]; dropped: number[] }> {
  await refreshConfirmations(tx, coin, height);
  const credited: TransferRow[] = [];
  for (const t of await lockDueDeposits(tx, coin, height)) {
    if (!(await completeDeposit(tx, t.id))) continue;
    await postDepositCredit(tx, t);
    credited.push(t);
  }
  const dropped = await dropLostDeposits(tx, coin, height);
  return { credited, dropped };
}

/**
 * The chain forked at `forkHeight` (blocks above it left the chain): the coin's open deposits in them lose their
 * block and confirmations until seen again, and those below count their confirmations from the fork again. Returns how many did and the credited deposits that were in those
 * blocks (a reorg deeper than their confirmations: they stay credited, the caller reports them).
 */
export async function rewindChainDeposits(
  tx: Tx,
  coin: Coin,
  forkHeight: number,
): Promise<{ unconfirmed: number; creditedRemoved: TransferRow[] }> {
  const unconfirmed = await unconfirmDepositsAbove(tx, coin, forkHeight);
  // The chain is now the fork's height: those below it have fewer blocks on top than they had.
  await refreshConfirmations(tx, coin, forkHeight);
  return { unconfirmed, creditedRemoved: await creditedDepositsAbove(tx, coin, forkHeight) };
}

/**
 * Credits output `d` to wallet `w` at once (an operator assigned a payment of the unmatched queue): a COMPLETED
 * deposit row, its ledger entry and the member's notification. Undefined when the output already has a deposit
 * row (credited some other way): nothing is written.
 */
export async function creditAssignedDeposit(
  tx: Tx,
  w: WalletRow,
  d: Omit<SeenDeposit, 'blockHash' | 'belowMinimum' | 'address'>,
): Promise<TransferRow | undefined> {
  const row = await insertAssignedDeposit(tx, w, { ...d, address: shownAddress(w) });
  if (row) await postDepositCredit(tx, row);
  return row;
}

/** The ledger entry and notification of crediting deposit row `t` (its txid and index name the movement). */
async function postDepositCredit(tx: Tx, t: TransferRow): Promise<void> {
  if (t.txid === null || t.chain_index === null) throw new Error(`deposit ${t.id} has no chain output`);
  const units = toUnits(qty(t.amount));
  await post(
    tx,
    movements.depositCredit({
      coin: t.coin,
      txid: t.txid,
      index: t.chain_index,
      memberId: t.member_id,
      units,
    }),
  );
  await notifyDepositCredited(tx, t.member_id, {
    transferId: t.id,
    walletId: t.wallet_id,
    coinCode: t.coin,
    amount: fromUnits(units),
  });
}
