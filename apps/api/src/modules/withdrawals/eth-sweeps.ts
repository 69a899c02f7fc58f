import { fromUnits } from '@p2p/contract';
import type { EthWriter } from '../../chains/eth-writer.ts';
import { inTx } from '../../db/tx.ts';
import { movements, post } from '../../ledger/index.ts';
import { feeWeiToUnits, TRANSFER_GAS } from './eth-payer.ts';
import type { PayoutContext } from './pipeline.ts';
import { returnNonce, takeNonce } from './repo.ts';
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
import type { Housekeeping } from './worker.ts';

/**
 * Sweeps of ETH deposit addresses (child 0/i) to the hot address (1/0) once their deposits are credited
 * (DECISIONS §18), each signed under `sweep:ETH:<id>` with the purpose SWEEP (the signer's limits do not count
 * it). The whole balance less the most the gas may cost goes; what the gas did not use stays as dust. Like a
 * withdrawal, the intent is stored before the signer is asked and the signed transaction before it is sent; at
 * the coin's confirmations the sweep's network fee is posted (`sweep:ETH:<id>:network-fee`).
 */
export function ethSweeps(o: { writer: EthWriter; hotAddress: string }): Housekeeping {
  return async (ctx) => {
    for (const s of await openSweeps(ctx.db, 'ETH', 'BROADCAST', 200)) await settleSweep(ctx, o.writer, s);
    for (const s of await openSweeps(ctx.db, 'ETH', 'PREPARED', 50)) await signSweep(ctx, o.writer, s);
    for (const c of await sweepCandidates(ctx.db, 'ETH', 20)) {
      const s = await prepareSweep(ctx, o, c);
      if (s) await signSweep(ctx, o.writer, s);
    }
  };
}

async function prepareSweep(
  ctx: PayoutContext,
  o: { writer: EthWriter; hotAddress: string },
  c: SweepCandidate,
): Promise<SweepRow | null> {
  try {
    const balance = await o.writer.balance(c.address);
    const fees = await o.writer.fees();
    const value = balance - TRANSFER_GAS * fees.maxFeePerGas;
    if (value <= 0n) return null;
    const fromNode = await o.writer.nonce(c.address);
    const chainId = await o.writer.chainId();
    return await inTx(ctx.db, async (tx) => {
      const row = await insertSweep(tx, {
        coin: 'ETH',
        walletId: c.walletId,
        from: c.address,
        to: o.hotAddress,
        throughId: c.throughId,
      });
      const nonce = await takeNonce(tx, 'ETH', c.address, fromNode);
      const priced = {
        maxFeePerGas: fees.maxFeePerGas.toString(),
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
      };
      const intent = {
        fromPath: `0/${c.derivationIndex}`,
        to: o.hotAddress,
        valueWei: value.toString(),
        nonce,
        gas: TRANSFER_GAS.toString(),
        ...priced,
        chainId,
      };
      return updateSweep(tx, row.id, {
        intent: JSON.stringify(intent),
        reservation: JSON.stringify({ from: c.address, nonce, ...priced }),
        chain_amount: value.toString(),
      });
    });
  } catch (err) {
    ctx.log.warn(
      { coin: 'ETH', walletId: c.walletId, error: describeError(err) },
      'sweep: could not prepare',
    );
    return null;
  }
}

async function signSweep(ctx: PayoutContext, writer: EthWriter, s: SweepRow): Promise<void> {
  if (!s.intent) return;
  let signed: { txid: string; signedTx: string };
  try {
    const r = await ctx.signer.sign({
      requestId: `sweep:ETH:${s.id}`,
      coin: 'ETH',
      purpose: 'SWEEP',
      intent: s.intent,
    });
    signed = { txid: r.txid, signedTx: r.signedTx };
  } catch (err) {
    ctx.log.warn({ coin: 'ETH', sweepId: s.id, error: describeError(err) }, 'sweep: signer call failed');
    if (isSignerRefusal(err)) {
      await inTx(ctx.db, async (tx) => {
        await deletePreparedSweep(tx, s.id);
        const r = s.reservation ?? {};
        if (typeof r.from === 'string' && typeof r.nonce === 'number')
          await returnNonce(tx, 'ETH', r.from, r.nonce);
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
  if (stored?.status === 'BROADCAST' && stored.signed_tx) await sendSweep(ctx, writer, stored);
}

async function sendSweep(ctx: PayoutContext, writer: EthWriter, s: SweepRow): Promise<void> {
  if (!s.signed_tx) return;
  try {
    const out = await writer.send(s.signed_tx);
    if (out.kind === 'REJECTED') await failSweep(ctx, s, out.reason);
  } catch (err) {
    ctx.log.warn({ coin: 'ETH', sweepId: s.id, error: describeError(err) }, 'sweep: broadcast failed');
  }
}

async function failSweep(ctx: PayoutContext, s: SweepRow, reason: string): Promise<void> {
  await inTx(ctx.db, async (tx) => {
    const locked = await lockSweep(tx, s.id);
    if (locked?.status !== 'BROADCAST') return;
    await updateSweep(tx, s.id, { status: 'FAILED', error: reason.slice(0, 300), settled_at: new Date() });
    // A refused transaction used no nonce: the next sweep of the address takes it again.
    const r = locked.reservation ?? {};
    if (typeof r.from === 'string' && typeof r.nonce === 'number')
      await returnNonce(tx, 'ETH', r.from, r.nonce);
  });
  ctx.log.warn({ coin: 'ETH', sweepId: s.id, reason }, 'sweep: FAILED; the wallet is swept again');
}

async function settleSweep(ctx: PayoutContext, writer: EthWriter, s: SweepRow): Promise<void> {
  if (!s.txid) return;
  try {
    const st = await writer.state(s.txid);
    if (st.kind === 'MINED' && Number(st.tip - st.blockNumber) + 1 >= ctx.confirmations) {
      const fee = feeWeiToUnits(st.feeWei);
      await inTx(ctx.db, async (tx) => {
        const locked = await lockSweep(tx, s.id);
        if (locked?.status !== 'BROADCAST') return;
        if (fee > 0n) await post(tx, movements.sweepNetworkFee({ sweepId: s.id, coin: 'ETH', units: fee }));
        await updateSweep(tx, s.id, {
          status: 'CONFIRMED',
          network_fee: fromUnits(fee),
          settled_at: new Date(),
        });
      });
    } else if (st.kind === 'MISSING') {
      const since = s.broadcast_at ? Date.now() - new Date(s.broadcast_at).getTime() : 0;
      if (since > ctx.missingGraceSec * 1000)
        await failSweep(ctx, s, 'missing from the chain after the grace');
      else await sendSweep(ctx, writer, s);
    }
  } catch (err) {
    ctx.log.warn({ coin: 'ETH', sweepId: s.id, error: describeError(err) }, 'sweep: settle failed');
  }
}
