import type { TrxWriter } from '../../chains/trx-writer.ts';
import { inTx } from '../../db/tx.ts';
import type { PayoutContext } from './pipeline.ts';
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
    for (const s of await openSweeps(ctx.db, 'TRX', 'PREPARED', 50))
      await signSweep(ctx, trxChain(ctx, o.node), s);
    for (const c of await sweepCandidates(ctx.db, 'TRX', 100)) {
      const s = await prepareSweep(ctx, o, c);
      if (s) await signSweep(ctx, trxChain(ctx, o.node), s);
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
  return preparing(ctx, 'TRX', c.walletId, async () => {
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
      return storePrepared(tx, row.id, {
        intent,
        reservation: { from: c.address, expiration, refBlock: ref.number },
        value,
      });
    });
  });
}

/** The chain side of TRX sweeps: TRON has no nonce, so a sweep that never went out gives nothing back. */
function trxChain(ctx: PayoutContext, node: TrxWriter): SweepChain {
  return { coin: 'TRX', send: (s) => broadcastTrx(ctx.db, node, s.signed_tx ?? '', s.txid ?? '') };
}

async function settleSweep(ctx: PayoutContext, node: TrxWriter, s: SweepRow): Promise<void> {
  if (!s.txid) return;
  const chain = trxChain(ctx, node);
  try {
    const st = await trxState(node, s.txid, ctx.confirmations);
    if (st.kind === 'CONFIRMED') {
      await confirmSweep(ctx, chain, s.id, st.feeUnits);
    } else if (st.kind === 'MISSING') {
      const expiration = Number(s.reservation?.expiration ?? Number.MAX_SAFE_INTEGER);
      // Past its expiration on the chain's clock it can never get in a block: a new sweep takes over.
      if ((await node.refBlock()).timestamp > expiration)
        await failSweep(ctx, chain, s, 'expired in no block');
      else await sendSweep(ctx, chain, s);
    }
  } catch (err) {
    ctx.log.warn({ coin: 'TRX', sweepId: s.id, error: describeError(err) }, 'sweep: settle failed');
  }
}
