import type { EthFees, EthWriter } from '../../chains/eth-writer.ts';
import { ChainNodeError } from '../../chains/reader.ts';
import { chainUnitsToLedger, ledgerToChainUnits } from '../../chains/units.ts';
import type { Tx } from '../../db/client.ts';
import type { ChainPayer, PayRequest, PreparedPayment } from './payer.ts';
import { takeNonce } from './repo.ts';

/** The gas of a plain value transfer to an account without code. */
export const TRANSFER_GAS = 21_000n;
/** A replacement must outbid the transaction it replaces by at least 10% (geth's rule); we offer 12.5%. */
const BUMP_NUM = 9n;
const BUMP_DEN = 8n;

/** The hot wallet does not hold enough for this withdrawal yet (sweeps pending, or the cold share too big). */
export class HotWalletShort extends Error {
  constructor(need: bigint, have: bigint) {
    super(`hot wallet short: needs ${need} wei, holds ${have} wei (waiting for sweeps)`);
    this.name = 'HotWalletShort';
  }
}

/** Ceil of wei / 10^10: the ledger units (10^-8 ETH) of a fee the platform paid, never less than it paid. */
export function feeWeiToUnits(wei: bigint): bigint {
  const down = chainUnitsToLedger('ETH', wei);
  return ledgerToChainUnits('ETH', down) === wei ? down : down + 1n;
}

function bumped(now: bigint, before: unknown): bigint {
  const prev = typeof before === 'string' && /^\d+$/.test(before) ? BigInt(before) : 0n;
  const floor = (prev * BUMP_NUM) / BUMP_DEN + 1n;
  return now > floor ? now : floor;
}

async function replacementFees(w: EthWriter, req: PayRequest): Promise<EthFees & { nonce: number }> {
  const r = req.replaces?.reservation ?? {};
  if (typeof r.nonce !== 'number') throw new Error('the replaced attempt has no nonce');
  const now = await w.fees();
  return {
    nonce: r.nonce,
    maxFeePerGas: bumped(now.maxFeePerGas, r.maxFeePerGas),
    maxPriorityFeePerGas: bumped(now.maxPriorityFeePerGas, r.maxPriorityFeePerGas),
  };
}

/**
 * Pays ETH withdrawals from the hot address (child 1/0, DECISIONS §18): EIP-1559 transfers with the fee from
 * the node's fee history, gas from the node's estimate, the nonce taken in the database under the hot address's
 * lock (a replacement keeps the replaced attempt's nonce and outbids its fee). Refuses (HotWalletShort) when the
 * hot address does not hold amount + the most the gas may cost. A reverted transaction is reported MISSING: it
 * paid nothing, and the withdrawal fails after the grace.
 */
export function ethPayer(o: { writer: EthWriter; hotAddress: string }): ChainPayer {
  let chainId: number | undefined;
  return {
    coin: 'ETH',
    async prepare(tx: Tx, req: PayRequest): Promise<PreparedPayment> {
      const w = o.writer;
      const valueWei = ledgerToChainUnits('ETH', req.units);
      const terms = req.replaces
        ? await replacementFees(w, req)
        : {
            ...(await w.fees()),
            nonce: await takeNonce(tx, 'ETH', o.hotAddress, await w.nonce(o.hotAddress)),
          };
      const have = await w.balance(o.hotAddress);
      if (have < valueWei + TRANSFER_GAS * terms.maxFeePerGas) {
        throw new HotWalletShort(valueWei + TRANSFER_GAS * terms.maxFeePerGas, have);
      }
      const gas = await w.estimateGas(o.hotAddress, req.address, valueWei);
      chainId ??= await w.chainId();
      const fees = {
        maxFeePerGas: terms.maxFeePerGas.toString(),
        maxPriorityFeePerGas: terms.maxPriorityFeePerGas.toString(),
      };
      return {
        intent: {
          fromPath: '1/0',
          to: req.address,
          valueWei: valueWei.toString(),
          nonce: terms.nonce,
          gas: gas.toString(),
          ...fees,
          chainId,
        },
        reservation: { fromPath: '1/0', from: o.hotAddress, nonce: terms.nonce, ...fees },
      };
    },
    broadcast: (signedTx) => o.writer.send(signedTx),
    async state(txid) {
      const st = await o.writer.state(txid);
      if (st.kind === 'PENDING') return { kind: 'PENDING', confirmations: 0 };
      if (st.kind === 'MISSING' || !st.success) return { kind: 'MISSING' };
      if (st.tip < st.blockNumber) throw new ChainNodeError('ETH', `receipt of ${txid} is above the tip`);
      return {
        kind: 'CONFIRMED',
        confirmations: Number(st.tip - st.blockNumber) + 1,
        feeUnits: feeWeiToUnits(st.feeWei),
      };
    },
  };
}
