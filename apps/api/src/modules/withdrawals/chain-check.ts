import { type Coin, fromUnits } from '@p2p/contract';
import type { Db } from '../../db/client.ts';
import type { ChainCheck } from '../../deps.ts';
import type { Payouts } from './payouts.ts';
import { depositAddresses, ledgerHoldings } from './queries.ts';
import { describeError } from './signer.ts';

/**
 * The ledger check's chain side (DECISIONS §18): for each coin with a payout (a node), what the ledger says the
 * platform holds on chain (minus `chain:<COIN>`) against the sum of its hot, deposit and cold addresses' balances on
 * the node. A difference is reported, never "fixed": deposits seen but not yet credited, wei below 10^-8 ETH,
 * gas of a reverted transaction.
 */
export function chainChecks(
  db: Db,
  payouts: Payouts,
  coldAddress: Partial<Record<Coin, string>> = {},
): ChainCheck[] {
  return [...payouts.payouts.entries()].map(([coin, p]) => async () => {
    const ledger = (await ledgerHoldings(db)).get(coin) ?? 0n;
    try {
      const cold = coldAddress[coin];
      // The cold address is the platform's too (a cold sweep moves coins there without a ledger entry).
      const coldHolds = cold && p.balanceOf ? await p.balanceOf(cold) : 0n;
      const onChain = (await p.holdings(await depositAddresses(db, coin))) + coldHolds;
      return {
        coinCode: coin,
        ledger: fromUnits(ledger),
        onChain: fromUnits(onChain),
        difference: fromUnits(onChain - ledger),
        error: null,
      };
    } catch (err) {
      return {
        coinCode: coin,
        ledger: fromUnits(ledger),
        onChain: null,
        difference: null,
        error: describeError(err),
      };
    }
  });
}
