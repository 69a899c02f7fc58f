import { secp256k1 } from '@noble/curves/secp256k1.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { btc } from '../../chains/btc.ts';
import { type Coin, dustLimit, type Selection, selectCoins, selectReplacement } from './btc-select.ts';

/**
 * Coin selection (DECISIONS §18) for any set of platform outputs, amount and fee rate: the chosen inputs cover
 * the amount and the fee exactly with the change, no input is used twice, change is either above the dust limit
 * or dropped into the fee, and the fee pays at least the asked rate for the estimated size. A replacement keeps
 * every input of the attempt it replaces.
 */

const TO = 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080';
const CHANGE = btc.addressFromPublicKey(secp256k1.getPublicKey(new Uint8Array(32).fill(7), true), 'regtest');
const DUST = dustLimit(CHANGE, 'regtest');

const coinArb = fc.record({
  txid: fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex')),
  vout: fc.integer({ min: 0, max: 20 }),
  sats: fc.bigInt({ min: 1_000n, max: 200_000_000n }),
});
const coinsArb = fc
  .uniqueArray(coinArb, { minLength: 1, maxLength: 25, selector: (c) => `${c.txid}:${c.vout}` })
  .map((cs) => cs.map((c) => ({ ...c, address: TO })));

function checkSelection(sel: Selection, amount: bigint, feeRate: number, from: readonly Coin[]): void {
  const keys = sel.inputs.map((c) => `${c.txid}:${c.vout}`);
  expect(new Set(keys).size).toBe(keys.length);
  for (const k of keys) expect(from.some((c) => `${c.txid}:${c.vout}` === k)).toBe(true);
  const sum = sel.inputs.reduce((s, c) => s + c.sats, 0n);
  expect(sum).toBe(amount + sel.fee + sel.change);
  expect(sel.change === 0n || sel.change >= DUST).toBe(true);
  expect(sel.fee).toBeGreaterThanOrEqual(BigInt(Math.floor(sel.vsize * feeRate)));
}

describe('BTC coin selection', () => {
  it('covers amount + fee, uses no input twice, keeps change above dust or drops it to the fee', () => {
    fc.assert(
      fc.property(
        coinsArb,
        fc.bigInt({ min: 1_000n, max: 300_000_000n }),
        fc.integer({ min: 1, max: 200 }),
        (coins, amount, feeRate) => {
          const sel = selectCoins({
            coins,
            to: TO,
            amount,
            changeAddress: CHANGE,
            feeRate,
            network: 'regtest',
          });
          if (sel) checkSelection(sel, amount, feeRate, coins);
          // no solution: not even spending every output pays the amount and its fee
          else
            expect(
              selectReplacement({
                forced: coins,
                extra: [],
                to: TO,
                amount,
                changeAddress: CHANGE,
                feeRate,
                network: 'regtest',
              }),
            ).toBeUndefined();
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a replacement keeps every input it replaces and pays at least its fee rate', () => {
    fc.assert(
      fc.property(
        coinsArb,
        fc.integer({ min: 1, max: 5 }),
        fc.bigInt({ min: 1_000n, max: 300_000_000n }),
        fc.integer({ min: 1, max: 200 }),
        (coins, nForced, amount, feeRate) => {
          const forced = coins.slice(0, nForced);
          const extra = coins.slice(nForced);
          const sel = selectReplacement({
            forced,
            extra,
            to: TO,
            amount,
            changeAddress: CHANGE,
            feeRate,
            network: 'regtest',
          });
          if (!sel) {
            // it gave up only when all outputs together do not pay it
            const all = coins.reduce((s, c) => s + c.sats, 0n);
            expect(all).toBeLessThan(amount + BigInt(Math.ceil(feeRate * (11 + 68 * coins.length + 31))));
            return;
          }
          checkSelection(sel, amount, feeRate, coins);
          for (const f of forced) expect(sel.inputs).toContainEqual(f);
        },
      ),
      { numRuns: 200 },
    );
  });
});
