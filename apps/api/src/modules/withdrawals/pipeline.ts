import { type Coin, fromUnits, toUnits } from '@p2p/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { qty } from '../../db/numeric.ts';
import { inTx } from '../../db/tx.ts';
import { movements, post } from '../../ledger/index.ts';
import { notifyWithdrawal } from '../notifications/index.ts';
import { coldSweepUnsigned } from './cold-sweeps.ts';
import type { ChainPayer, PayAttempt } from './payer.ts';
import {
  type AttemptRow,
  attemptsOf,
  deletePreparedAttempt,
  holdsPayoutLease,
  insertAttempt,
  lockAttempt,
  lockWithdrawal,
  returnNonce,
  setWithdrawalError,
  updateAttempt,
  updateWithdrawal,
} from './repo.ts';
import { describeError, isSignerRefusal, type PayoutSigner } from './signer.ts';

/**
 * The steps of paying one external withdrawal (DECISIONS §18): prepare (the payer reserves inputs / a nonce and
 * says what to sign; the attempt and its intent are stored in the same transaction), sign (the signer, by
 * requestId), store the signed transaction and its txid (BROADCAST, committed before anything is sent), send,
 * and settle (COMPLETED at the coin's confirmations with its ledger entries, or FAILED). Each step commits on
 * its own, so a crash anywhere resumes from the stored state: an unsigned attempt is signed with its stored
 * intent (the signer answers a repeat from its journal), a stored transaction is sent again, never re-signed.
 */

/** What the steps of one coin's payouts need. Times are seconds unless named otherwise. */
export interface PayoutContext {
  db: Db;
  coin: Coin;
  payer: ChainPayer;
  signer: PayoutSigner;
  /** This instance's payout lease holder id: preparing checks the lease in its transaction. */
  holder: string;
  confirmations: number;
  missingGraceSec: number;
  retrySec: number;
  log: FastifyBaseLogger;
}

/** The lease moved to another instance between two steps: this one prepares nothing more. */
export class PayoutLeaseLost extends Error {}

function requestIdOf(id: number, seq: number): string {
  return seq === 0 ? `withdrawal:${id}` : `withdrawal:${id}:r${seq}`;
}

/**
 * Prepares the next attempt of APPROVED withdrawal `id`: a replacement of its last attempt when that one
 * FAILED (same inputs / nonce), else the first. Answers the stored attempt, or null when the withdrawal is no
 * longer APPROVED or already has a live attempt. A payer error (node down, hot wallet short) is stored as the
 * withdrawal's lastError and the withdrawal waits retrySec; nothing is reserved.
 */
export async function prepareAttempt(ctx: PayoutContext, id: number): Promise<AttemptRow | null> {
  try {
    return await inTx(ctx.db, async (tx) => {
      if (!(await holdsPayoutLease(tx, ctx.coin, ctx.holder))) throw new PayoutLeaseLost();
      // An unsigned ETH/XRP cold sweep holds the last nonce: it is signed (or gives it back) first.
      if (await coldSweepUnsigned(tx, ctx.coin)) return null;
      const w = await lockWithdrawal(tx, id);
      if (w?.status !== 'APPROVED') return null;
      const previous = await attemptsOf(tx, id);
      const last = previous[0];
      if (last && (last.status === 'PREPARED' || last.status === 'BROADCAST')) return null;
      const seq = last ? last.seq + 1 : 0;
      const replaces: PayAttempt | null =
        last?.status === 'FAILED' ? { requestId: last.request_id, reservation: last.reservation } : null;
      const requestId = requestIdOf(id, seq);
      const prepared = await ctx.payer.prepare(tx, {
        requestId,
        withdrawalId: id,
        address: w.address,
        destTag: w.dest_tag,
        units: toUnits(qty(w.amount)),
        replaces,
      });
      return insertAttempt(tx, {
        transferId: id,
        coin: ctx.coin,
        seq,
        requestId,
        replacesId: replaces && last ? last.id : null,
        reservation: { ...prepared.reservation, ...(replaces ? { replacement: true } : {}) },
        intent: prepared.intent,
      });
    });
  } catch (err) {
    if (err instanceof PayoutLeaseLost) throw err;
    const message = describeError(err);
    ctx.log.warn({ coin: ctx.coin, withdrawalId: id, error: message }, 'payout: could not prepare');
    await setWithdrawalError(ctx.db, id, message, ctx.retrySec);
    return null;
  }
}

/**
 * Asks the signer for attempt `a` (PREPARED) with its stored intent and stores the answer (attempt and
 * withdrawal BROADCAST with the txid), then sends it. A refusal over the signer's limits deletes the attempt
 * (nothing was signed), gives an unused nonce back and leaves the withdrawal APPROVED with lastError; a
 * signer that does not answer leaves the attempt to be asked again. Answers the attempt as stored, or null.
 */
export async function signAndSend(ctx: PayoutContext, a: AttemptRow): Promise<AttemptRow | null> {
  let signed: { txid: string; signedTx: string };
  try {
    const r = await ctx.signer.sign({
      requestId: a.request_id,
      coin: ctx.coin,
      purpose: 'WITHDRAWAL',
      intent: a.intent,
    });
    if (r.requestId !== a.request_id || !r.txid || !r.signedTx) {
      throw new Error(`the signer answered another request (${r.requestId})`);
    }
    signed = { txid: r.txid, signedTx: r.signedTx };
  } catch (err) {
    await signFailed(ctx, a, err);
    return null;
  }
  const stored = await inTx(ctx.db, async (tx) => {
    const locked = await lockAttempt(tx, a.id);
    if (locked?.status !== 'PREPARED') return locked ?? null;
    await updateAttempt(tx, a.id, {
      status: 'BROADCAST',
      signed_tx: signed.signedTx,
      txid: signed.txid,
      broadcast_at: new Date(),
    });
    await updateWithdrawal(tx, a.transfer_id, {
      status: 'BROADCAST',
      txid: signed.txid,
      last_error: null,
      next_try_at: null,
    });
    return { ...locked, status: 'BROADCAST' as const, signed_tx: signed.signedTx, txid: signed.txid };
  });
  if (stored?.status === 'BROADCAST') await send(ctx, stored);
  return stored;
}

async function signFailed(ctx: PayoutContext, a: AttemptRow, err: unknown): Promise<void> {
  const message = describeError(err);
  const refused = isSignerRefusal(err);
  ctx.log.warn(
    { coin: ctx.coin, withdrawalId: a.transfer_id, requestId: a.request_id, error: message },
    refused ? 'payout: the signer refused; the withdrawal stays APPROVED' : 'payout: signer call failed',
  );
  await inTx(ctx.db, async (tx) => {
    if (refused && (await deletePreparedAttempt(tx, a.id))) {
      const r = a.reservation;
      if (typeof r.from === 'string' && typeof r.nonce === 'number' && r.replacement !== true) {
        await returnNonce(tx, ctx.coin, r.from, r.nonce);
      }
    }
    await setWithdrawalError(tx, a.transfer_id, message, ctx.retrySec);
  });
}

/** Sends stored attempt `a`; a node that refuses it for good fails it. A node that is down: sent again later. */
export async function send(ctx: PayoutContext, a: AttemptRow): Promise<void> {
  if (!a.signed_tx || !a.txid) return;
  try {
    const outcome = await ctx.payer.broadcast(a.signed_tx, a.txid);
    if (outcome.kind === 'REJECTED') await failAttempt(ctx, a, `the node refused it: ${outcome.reason}`);
  } catch (err) {
    ctx.log.warn(
      { coin: ctx.coin, withdrawalId: a.transfer_id, error: describeError(err) },
      'payout: broadcast failed; sent again later',
    );
  }
}

/**
 * Attempt `a` and its withdrawal become FAILED with `reason` (an operator retries or rejects); `feeUnits` the
 * chain took for the failed transaction all the same is posted as the platform's network fee.
 */
export async function failAttempt(
  ctx: PayoutContext,
  a: AttemptRow,
  reason: string,
  feeUnits = 0n,
): Promise<void> {
  const text = reason.slice(0, 300);
  await inTx(ctx.db, async (tx) => {
    const locked = await lockAttempt(tx, a.id);
    if (locked?.status !== 'BROADCAST') return;
    if (feeUnits > 0n) {
      await post(tx, movements.failedAttemptNetworkFee({ attemptId: a.id, coin: ctx.coin, units: feeUnits }));
    }
    await updateAttempt(tx, a.id, {
      status: 'FAILED',
      error: text,
      settled_at: new Date(),
      ...(feeUnits > 0n ? { network_fee: fromUnits(feeUnits) } : {}),
    });
    const w = await lockWithdrawal(tx, a.transfer_id);
    if (w?.status === 'BROADCAST') {
      await updateWithdrawal(tx, a.transfer_id, {
        status: 'FAILED',
        last_error: text,
        last_error_at: new Date(),
      });
    }
  });
  ctx.log.warn({ coin: ctx.coin, withdrawalId: a.transfer_id, reason: text }, 'payout: withdrawal FAILED');
}

/**
 * Looks at BROADCAST attempt `a` on the node: at the coin's confirmations the withdrawal completes; a chain that
 * says it will never pay (FAILED) fails it at once; missing
 * past the grace (counted from when it was stored) it fails; missing within it, it is sent again.
 */
export async function settle(ctx: PayoutContext, a: AttemptRow): Promise<void> {
  if (!a.txid) return;
  const st = await ctx.payer.state(a.txid);
  if (st.kind === 'CONFIRMED' && st.confirmations >= ctx.confirmations) {
    await complete(ctx, a, st.feeUnits);
    return;
  }
  if (st.kind === 'FAILED') {
    await failAttempt(ctx, a, st.reason, st.feeUnits);
    return;
  }
  if (st.kind !== 'MISSING') return;
  const since = a.broadcast_at ? Date.now() - new Date(a.broadcast_at).getTime() : 0;
  if (since > ctx.missingGraceSec * 1000) {
    await failAttempt(
      ctx,
      a,
      `not on the chain nor in the node's pool ${ctx.missingGraceSec} s after it was sent`,
    );
    return;
  }
  await send(ctx, a);
}

/** COMPLETED with its ledger entries (pending -> chain, the network fee) and the member's notification. */
async function complete(ctx: PayoutContext, a: AttemptRow, feeUnits: bigint): Promise<void> {
  const done = await inTx(ctx.db, async (tx) => {
    const locked = await lockAttempt(tx, a.id);
    if (locked?.status !== 'BROADCAST') return false;
    const w = await lockWithdrawal(tx, a.transfer_id);
    if (w?.status !== 'BROADCAST') return false;
    const units = toUnits(qty(w.amount));
    await post(tx, movements.withdrawalComplete({ transferId: w.id, coin: ctx.coin, units }));
    if (feeUnits > 0n) {
      await post(tx, movements.withdrawalNetworkFee({ transferId: w.id, coin: ctx.coin, units: feeUnits }));
    }
    await updateAttempt(tx, a.id, {
      status: 'CONFIRMED',
      network_fee: fromUnits(feeUnits),
      settled_at: new Date(),
    });
    await updateWithdrawal(tx, w.id, { status: 'COMPLETED', completed_at: new Date(), last_error: null });
    await notifyWithdrawal(tx, w.member_id, 'WITHDRAWAL_COMPLETED', {
      transferId: w.id,
      walletId: w.wallet_id,
      coinCode: ctx.coin,
      amount: qty(w.amount),
      txid: a.txid,
    });
    return true;
  });
  if (done) ctx.log.info({ coin: ctx.coin, withdrawalId: a.transfer_id, txid: a.txid }, 'payout: completed');
}
