import { fromUnits } from '@p2p/contract';
import type { Tx } from '../../db/client.ts';
import { inTx } from '../../db/tx.ts';
import { movements, post } from '../../ledger/index.ts';
import type { PayoutContext } from './pipeline.ts';
import { deletePreparedSweep, lockSweep, type SweepRow, updateSweep } from './repo-sweeps.ts';
import { describeError, isSignerRefusal } from './signer.ts';

/**
 * The steps ETH and TRX deposit sweeps share (DECISIONS §18, eth-sweeps.ts and trx-sweeps.ts): ask the signer
 * for a PREPARED sweep under `sweep:<COIN>:<id>` with the purpose SWEEP, store the signed transaction and its
 * txid (BROADCAST) before sending it, fail one the node refuses, confirm one with its network fee. What differs
 * per chain is how a transaction is sent and what a sweep that never went out gives back (an ETH nonce).
 */
export interface SweepChain {
  coin: 'ETH' | 'TRX';
  /** Sends the stored transaction; REJECTED when the node refuses it for good. Throws when the node is down. */
  send(s: SweepRow): Promise<{ kind: 'ACCEPTED' | 'KNOWN' } | { kind: 'REJECTED'; reason: string }>;
  /** Gives back what sweep `s` (signed never, or refused by the node) reserved, inside `tx`. */
  giveBack?(tx: Tx, s: SweepRow): Promise<void>;
}

/**
 * Asks the signer for PREPARED sweep `s` with its stored intent, stores the answer and sends it. A refusal
 * deletes the row (nothing was signed: the wallet is a candidate again) and gives back what it reserved; a
 * signer that does not answer leaves it to be asked again.
 */
export async function signSweep(ctx: PayoutContext, chain: SweepChain, s: SweepRow): Promise<void> {
  if (!s.intent) return;
  let signed: { txid: string; signedTx: string };
  try {
    const r = await ctx.signer.sign({
      requestId: `sweep:${chain.coin}:${s.id}`,
      coin: chain.coin,
      purpose: 'SWEEP',
      intent: s.intent,
    });
    signed = { txid: r.txid, signedTx: r.signedTx };
  } catch (err) {
    ctx.log.warn({ coin: chain.coin, sweepId: s.id, error: describeError(err) }, 'sweep: signer call failed');
    if (isSignerRefusal(err)) {
      await inTx(ctx.db, async (tx) => {
        await deletePreparedSweep(tx, s.id);
        await chain.giveBack?.(tx, s);
      });
    }
    return;
  }
  const stored = await inTx(ctx.db, async (tx) => {
    const locked = await lockSweep(tx, s.id);
    if (locked?.status !== 'PREPARED') return locked ?? null;
    return updateSweep(tx, s.id, {
      status: 'BROADCAST',
      signed_tx: signed.signedTx,
      txid: signed.txid,
      broadcast_at: new Date(),
    });
  });
  if (stored?.status === 'BROADCAST' && stored.signed_tx) await sendSweep(ctx, chain, stored);
}

/** Sends stored sweep `s`; one the node refuses fails. A node that is down: logged, sent again later. */
export async function sendSweep(ctx: PayoutContext, chain: SweepChain, s: SweepRow): Promise<void> {
  if (!s.signed_tx || !s.txid) return;
  try {
    const out = await chain.send(s);
    if (out.kind === 'REJECTED') await failSweep(ctx, chain, s, out.reason);
  } catch (err) {
    ctx.log.warn({ coin: chain.coin, sweepId: s.id, error: describeError(err) }, 'sweep: broadcast failed');
  }
}

/** BROADCAST sweep `s` becomes FAILED with `reason` (and gives back what it reserved): the wallet is swept again. */
export async function failSweep(
  ctx: PayoutContext,
  chain: SweepChain,
  s: SweepRow,
  reason: string,
): Promise<void> {
  await inTx(ctx.db, async (tx) => {
    const locked = await lockSweep(tx, s.id);
    if (locked?.status !== 'BROADCAST') return;
    await updateSweep(tx, s.id, { status: 'FAILED', error: reason.slice(0, 300), settled_at: new Date() });
    await chain.giveBack?.(tx, locked);
  });
  ctx.log.warn({ coin: chain.coin, sweepId: s.id, reason }, 'sweep: FAILED; the wallet is swept again');
}

/** BROADCAST sweep `id` is CONFIRMED with its network fee (ledger units) posted in the same transaction. */
export async function confirmSweep(
  ctx: PayoutContext,
  chain: SweepChain,
  id: number,
  fee: bigint,
): Promise<void> {
  await inTx(ctx.db, async (tx) => {
    const locked = await lockSweep(tx, id);
    if (locked?.status !== 'BROADCAST') return;
    if (fee > 0n) await post(tx, movements.sweepNetworkFee({ sweepId: id, coin: chain.coin, units: fee }));
    await updateSweep(tx, id, { status: 'CONFIRMED', network_fee: fromUnits(fee), settled_at: new Date() });
  });
}

/** Stores what sweep `id` was prepared with (the intent, what it reserved, the amount in chain units). */
export function storePrepared(
  tx: Tx,
  id: number,
  p: { intent: Record<string, unknown>; reservation: Record<string, unknown>; value: bigint },
): Promise<SweepRow> {
  return updateSweep(tx, id, {
    intent: JSON.stringify(p.intent),
    reservation: JSON.stringify(p.reservation),
    chain_amount: p.value.toString(),
  });
}

/** Runs the preparing of one wallet's sweep; a failure (the node, the database) is logged and answers null. */
export async function preparing(
  ctx: PayoutContext,
  coin: SweepChain['coin'],
  walletId: number,
  prepare: () => Promise<SweepRow | null>,
): Promise<SweepRow | null> {
  try {
    return await prepare();
  } catch (err) {
    ctx.log.warn({ coin, walletId, error: describeError(err) }, 'sweep: could not prepare');
    return null;
  }
}
