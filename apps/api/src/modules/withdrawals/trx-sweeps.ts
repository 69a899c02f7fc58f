import { fromUnits } from '@p2p/contract';
import type { TrxWriter } from '../../chains/trx-writer.ts';
import { inTx } from '../../db/tx.ts';
import { movements, post } from '../../ledger/index.ts';
import type { PayoutContext } from './pipeline.ts';
import {
  deletePreparedSweep,
  insertSweep,
  lockSweep,
  openSweeps,
  type SweepCandidate,
  type SweepRow,
  sweepCandidates,
  updateSweep,
} from './repo-sweeps.ts';
import { describeError, isSignerRefusal } from './signer.ts';
import { broadcastTrx, trxState } from './trx-payer.ts';
import type { Housekeeping } from './worker.ts';

/** A TransferContract is about 270 bytes; without free bandwidth the sender burns 1000 sun a byte. */
export const TRX_SWEEP_BANDWIDTH_SUN = 300_000n;
/** Sending to an account the chain does not know yet also pays its creation (1 TRX + 0.1 TRX). */
export const TRX_ACCOUNT_CREATION_SUN = 1_100_000n;
/** A deposit address is swept only when at least this much (1 TRX) would arrive: less is not worth the burn. */
export const TRX_SWEEP_MIN_SUN = 1_000_000n;
/** How long a sweep may wait to get in a block (its raw_data.expiration after the reference block). */
const EXPIRATION_MS = 60_000;

interface TrxSweepOptions {
  node: TrxWriter;
  hotAddress: string;
}

/**
 * Sweeps of TRX deposit addresses (child 0/i) to the hot address (1/0) once their deposits are credited
 * (DECISIONS §18), like ethSweeps: `sweep:TRX:<id>` signed with the purpose SWEEP, the intent stored before the
 * signer is asked and the signed transaction before it is sent, the network fee posted at the coin's
 * confirmations (`sweep:TRX:<id>:network-fee`, what gettransactioninfobyid says was burnt). What goes is the
 * balance less the most the transfer may burn (its bandwidth, and the hot address's creation while the chain
 * does not know it), and only when that is at least TRX_SWEEP_MIN_SUN. TRON has no nonce: a sweep that is in
 * no block once the head block is past its expiration can never be, so it FAILS and the wallet is swept again.
 */
export function trxSweeps(o: TrxSweepOptions): Housekeeping {
  return async (ctx) => {
    for (const s of await openSweeps(ctx.db, 'TRX', 'BROADCAST', 200)) await settleSweep(ctx, o.node, s);
    for (const s of await openSweeps(ctx.db, 'TRX', 'PREPARED', 50)) await signSweep(ctx, o.node, s);
    for (const c of await sweepCandidates(ctx.db, 'TRX', 100)) {
      const s = await prepareSweep(ctx, o, c);
      if (s) await signSweep(ctx, o.node, s);
    }
  };
}

/** What a sweep of `balance` sun sends to `hot` (holding `hotBalance`): 0 when not worth it. */
export function trxSweepValue(balance: bigint, hotBalance: bigint): bigint {
  const burn = TRX_SWEEP_BANDWIDTH_SUN + (hotBalance > 0n ? 0n : TRX_ACCOUNT_CREATION_SUN);
  const value = balance - burn;
  return value >= TRX_SWEEP_MIN_SUN ? value : 0n;
}

async function prepareSweep(
  ctx: PayoutContext,
  o: TrxSweepOptions,
  c: SweepCandidate,
): Promise<SweepRow | null> {
  try {
    const value = trxSweepValue(await o.node.balance(c.address), await o.node.balance(o.hotAddress));
    if (value === 0n) return null;
    const ref = await o.node.refBlock();
    const expiration = ref.timestamp + EXPIRATION_MS;
    return await inTx(ctx.db, async (tx) => {
      const row = await insertSweep(tx, {
        coin: 'TRX',
        walletId: c.walletId,
        from: c.address,
        to: o.hotAddress,
        throughId: c.throughId,
      });
      const intent = {
        fromPath: `0/${c.derivationIndex}`,
        to: o.hotAddress,
        amountSun: value.toString(),
        refBlockBytes: ref.refBlockBytes,
        refBlockHash: ref.refBlockHash,
        expiration,
        timestamp: ref.timestamp,
      };
      return updateSweep(tx, row.id, {
        intent: JSON.stringify(intent),
        reservation: JSON.stringify({ from: c.address, expiration, refBlock: ref.number }),
        chain_amount: value.toString(),
      });
    });
  } catch (err) {
    ctx.log.warn(
      { coin: 'TRX', walletId: c.walletId, error: describeError(err) },
      'sweep: could not prepare',
    );
    return null;
  }
}

async function signSweep(ctx: PayoutContext, node: TrxWriter, s: SweepRow): Promise<void> {
  if (!s.intent) return;
  let signed: { txid: string; signedTx: string };
  try {
    const r = await ctx.signer.sign({
      requestId: `sweep:TRX:${s.id}`,
      coin: 'TRX',
      purpose: 'SWEEP',
      intent: s.intent,
    });
    signed = { txid: r.txid, signedTx: r.signedTx };
  } catch (err) {
    ctx.log.warn({ coin: 'TRX', sweepId: s.id, error: describeError(err) }, 'sweep: signer call failed');
    // Nothing was signed: the row goes, the wallet is a candidate again.
    if (isSignerRefusal(err)) await inTx(ctx.db, (tx) => deletePreparedSweep(tx, s.id));
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
  if (stored?.status === 'BROADCAST' && stored.signed_tx) await sendSweep(ctx, node, stored);
}

async function sendSweep(ctx: PayoutContext, node: TrxWriter, s: SweepRow): Promise<void> {
  if (!s.signed_tx || !s.txid) return;
  try {
    const out = await broadcastTrx(ctx.db, node, s.signed_tx, s.txid);
    if (out.kind === 'REJECTED') await failSweep(ctx, s, out.reason);
  } catch (err) {
    ctx.log.warn({ coin: 'TRX', sweepId: s.id, error: describeError(err) }, 'sweep: broadcast failed');
  }
}

async function failSweep(ctx: PayoutContext, s: SweepRow, reason: string): Promise<void> {
  await inTx(ctx.db, async (tx) => {
    const locked = await lockSweep(tx, s.id);
    if (locked?.status !== 'BROADCAST') return;
    await updateSweep(tx, s.id, { status: 'FAILED', error: reason.slice(0, 300), settled_at: new Date() });
  });
  ctx.log.warn({ coin: 'TRX', sweepId: s.id, reason }, 'sweep: FAILED; the wallet is swept again');
}

async function settleSweep(ctx: PayoutContext, node: TrxWriter, s: SweepRow): Promise<void> {
  if (!s.txid) return;
  try {
    const st = await trxState(node, s.txid, ctx.confirmations);
    if (st.kind === 'CONFIRMED') {
      await inTx(ctx.db, async (tx) => {
        const locked = await lockSweep(tx, s.id);
        if (locked?.status !== 'BROADCAST') return;
        if (st.feeUnits > 0n) {
          await post(tx, movements.sweepNetworkFee({ sweepId: s.id, coin: 'TRX', units: st.feeUnits }));
        }
        await updateSweep(tx, s.id, {
          status: 'CONFIRMED',
          network_fee: fromUnits(st.feeUnits),
          settled_at: new Date(),
        });
      });
    } else if (st.kind === 'MISSING') {
      const expiration = Number(s.reservation?.expiration ?? Number.MAX_SAFE_INTEGER);
      // Past its expiration on the chain's clock it can never get in a block: a new sweep takes over.
      if ((await node.refBlock()).timestamp > expiration) await failSweep(ctx, s, 'expired in no block');
      else await sendSweep(ctx, node, s);
    }
  } catch (err) {
    ctx.log.warn({ coin: 'TRX', sweepId: s.id, error: describeError(err) }, 'sweep: settle failed');
  }
}
