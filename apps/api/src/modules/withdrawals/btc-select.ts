import { coinselect, dustThreshold, vsize } from '@bitcoinerlab/coinselect';
import { DescriptorsFactory, type OutputInstance } from '@bitcoinerlab/descriptors';
import * as ecc from '@bitcoinerlab/secp256k1';
import { networks } from 'bitcoinjs-lib';
import type { ChainNetwork } from '../../chains/index.ts';

/**
 * Coin selection for BTC withdrawals (DECISIONS §18) with @bitcoinerlab/coinselect: which of the platform's
 * outputs pay `amount` to the recipient at `feeRate` sat/vB, and whether change (to our internal chain) is
 * worth creating. Values are satoshi; the library counts in JS numbers, exact below 2^53 (21M BTC is 2.1e15).
 */

const { Output } = DescriptorsFactory(ecc);

/** One spendable output of the platform. */
export interface Coin {
  txid: string;
  vout: number;
  sats: bigint;
  address: string;
}

export interface Selection {
  inputs: Coin[];
  /** Change in satoshi, 0 when none is created (it would be dust: it goes to the fee). */
  change: bigint;
  fee: bigint;
  vsize: number;
}

/** bitcoinjs-lib's network of the app's network (regtest: `bcrt` addresses). */
export function bitcoinjsNetwork(network: ChainNetwork): networks.Network {
  return network === 'mainnet'
    ? networks.bitcoin
    : network === 'testnet'
      ? networks.testnet
      : networks.regtest;
}

function outputOf(address: string, network: ChainNetwork): OutputInstance {
  return new Output({ descriptor: `addr(${address})`, network: bitcoinjsNetwork(network) });
}

/** The smallest amount an output to `address` may carry (below it nodes do not relay the transaction). */
export function dustLimit(address: string, network: ChainNetwork): bigint {
  return BigInt(dustThreshold(outputOf(address, network)));
}

/**
 * Picks inputs from `coins` paying `amount` to `to` with change to `changeAddress` at `feeRate` sat/vB.
 * Undefined when the coins do not cover amount and fee. Throws when the amount is below the dust limit.
 */
export function selectCoins(p: {
  coins: readonly Coin[];
  to: string;
  amount: bigint;
  changeAddress: string;
  feeRate: number;
  network: ChainNetwork;
  /** The node's dust relay fee, sat/vB (Bitcoin Core: 3). */
  dustRelayFeeRate?: number;
}): Selection | undefined {
  const byKey = new Map(p.coins.map((c) => [`${c.txid}:${c.vout}`, c]));
  const utxos = p.coins.map((c) => ({
    output: outputOf(c.address, p.network),
    value: Number(c.sats),
    key: `${c.txid}:${c.vout}`,
  }));
  const target = { output: outputOf(p.to, p.network), value: Number(p.amount) };
  const r = coinselect({
    utxos,
    targets: [target],
    remainder: outputOf(p.changeAddress, p.network),
    feeRate: p.feeRate,
    ...(p.dustRelayFeeRate ? { dustRelayFeeRate: p.dustRelayFeeRate } : {}),
  });
  if (!r) return undefined;
  const inputs = r.utxos.map((u) => byKey.get((u as (typeof utxos)[number]).key) as Coin);
  const change = r.targets.length > 1 ? BigInt(r.targets.at(-1)?.value ?? 0) : 0n;
  return { inputs, change, fee: BigInt(r.fee), vsize: r.vsize };
}

/**
 * A replacement's selection (BIP-125): every one of `forced` (the replaced attempt's inputs, so the two
 * transactions conflict and only one can ever confirm), then as few of `extra` as needed, at `feeRate`.
 * Change is kept when it is above the dust limit, else it goes to the fee. Undefined when even all coins
 * do not cover amount and fee.
 */
export function selectReplacement(p: {
  forced: readonly Coin[];
  extra: readonly Coin[];
  to: string;
  amount: bigint;
  changeAddress: string;
  feeRate: number;
  network: ChainNetwork;
  dustRelayFeeRate?: number;
}): Selection | undefined {
  const target = outputOf(p.to, p.network);
  const remainder = outputOf(p.changeAddress, p.network);
  const dust = BigInt(dustThreshold(remainder, p.dustRelayFeeRate));
  const inputs = [...p.forced];
  const pool = [...p.extra].sort((a, b) => (b.sats > a.sats ? 1 : b.sats < a.sats ? -1 : 0));
  for (;;) {
    const sum = inputs.reduce((s, c) => s + c.sats, 0n);
    const ins = inputs.map((c) => outputOf(c.address, p.network));
    const withChange = vsize(ins, [target, remainder]);
    const feeWith = BigInt(Math.ceil(withChange * p.feeRate));
    if (sum - p.amount - feeWith >= dust) {
      return { inputs, change: sum - p.amount - feeWith, fee: feeWith, vsize: withChange };
    }
    const without = vsize(ins, [target]);
    if (sum >= p.amount + BigInt(Math.ceil(without * p.feeRate))) {
      return { inputs, change: 0n, fee: sum - p.amount, vsize: without };
    }
    const next = pool.shift();
    if (!next) return undefined;
    inputs.push(next);
  }
}
