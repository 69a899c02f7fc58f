import type { EthWriter } from '../../chains/eth-writer.ts';
import { inTx } from '../../db/tx.ts';
import { feeWeiToUnits, TRANSFER_GAS } from './eth-payer.ts';
import type { PayoutContext } from './pipeline.ts';
import { returnNonce, takeNonce } from './repo.ts';
import {
  insertSweep,
  openSweeps,
  type SweepCandidate,
  type SweepRow,
  sweepCandidates,
} from './repo-sweeps.ts';
import { describeError } from './signer.ts';
import {
  confirmSweep,
  failSweep,
  preparing,
  type SweepChain,
  sendSweep,
  signSweep,
  storePrepared,
} from './sweep-steps.ts';
import type { Housekeeping } from './worker.ts';

/**
 * Sweeps of ETH deposit addresses (child 0/i) to the hot address (1/0) once their deposits are credited
 * (DECISIONS §18), each signed under `sweep:ETH:<id>` with the purpose SWEEP (the signer's limits do not count
 * it). The whole balance less the most the gas may cost goes; what the gas did not use stays as dust. Like a
 * withdrawal, the intent is stored before the signer is asked and the signed transaction before it is sent; at
 * the coin's confirmations the sweep's network fee is posted (`sweep:ETH:<id>:network-fee`).
 */
export function ethSweeps(o: { writer: EthWriter; hotAddress: string }): Housekeeping {
  const chain = ethChain(o.writer);
  return async (ctx) => {
    for (const s of await openSweeps(ctx.db, 'ETH', 'BROADCAST', 200))
      await settleSweep(ctx, chain, o.writer, s);
    for (const s of await openSweeps(ctx.db, 'ETH', 'PREPARED', 50)) await signSweep(ctx, chain, s);
    for (const c of await sweepCandidates(ctx.db, 'ETH', 20)) {
      const s = await prepareSweep(ctx, o, c);
      if (s) await signSweep(ctx, chain, s);
    }
  };
}

async function prepareSweep(
  ctx: PayoutContext,
  o: { writer: EthWriter; hotAddress: string },
  c: SweepCandidate,
): Promise<SweepRow | null> {
  return preparing(ctx, 'ETH', c.walletId, async () => {
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
      return storePrepared(tx, row.id, { intent, reservation: { from: c.address, nonce, ...priced }, value });
    });
  });
}

/** The chain side of ETH sweeps: sent through the writer; a sweep that never went out gives its nonce back. */
function ethChain(writer: EthWriter): SweepChain {
  return {
    coin: 'ETH',
    send: (s) => writer.send(s.signed_tx ?? ''),
    async giveBack(tx, s) {
      // A refused transaction used no nonce: the next sweep of the address takes it again.
      const r = s.reservation ?? {};
      if (typeof r.from === 'string' && typeof r.nonce === 'number')
        await returnNonce(tx, 'ETH', r.from, r.nonce);
    },
  };
}

async function settleSweep(
  ctx: PayoutContext,
  chain: SweepChain,
  writer: EthWriter,
  s: SweepRow,
): Promise<void> {
  if (!s.txid) return;
  try {
    const st = await writer.state(s.txid);
    if (st.kind === 'MINED' && Number(st.tip - st.blockNumber) + 1 >= ctx.confirmations) {
      await confirmSweep(ctx, chain, s.id, feeWeiToUnits(st.feeWei));
    } else if (st.kind === 'MISSING') {
      const since = s.broadcast_at ? Date.now() - new Date(s.broadcast_at).getTime() : 0;
      if (since > ctx.missingGraceSec * 1000)
        await failSweep(ctx, chain, s, 'missing from the chain after the grace');
      else await sendSweep(ctx, chain, s);
    }
  } catch (err) {
    ctx.log.warn({ coin: 'ETH', sweepId: s.id, error: describeError(err) }, 'sweep: settle failed');
  }
}
