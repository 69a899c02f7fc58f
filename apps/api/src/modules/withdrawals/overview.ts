import { COINS, type Coin, fromUnits, type OpsPayoutCoin } from '@p2p/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Payouts } from './payouts.ts';
import { liabilitiesByCoin } from './queries.ts';
import { countWithdrawals, payoutErrors } from './repo.ts';
import { describeError } from './signer.ts';

async function hotBalanceOf(
  payouts: Payouts,
  coin: Coin,
): Promise<{ balance: string | null; error: string | null }> {
  const p = payouts.payouts.get(coin);
  if (!p) return { balance: null, error: null };
  try {
    return { balance: fromUnits(await p.hotBalance()), error: null };
  } catch (err) {
    return { balance: null, error: describeError(err) };
  }
}

/**
 * GET /ops/api/v1/withdrawals/overview (DECISIONS §18): per coin the hot address and what it holds on chain
 * (null without a node, or when the node did not answer: lastError says why), the cold address
 * (COLD_ADDRESS_<COIN>), members' liabilities, the queue's counts and whether the coin is paid by a worker.
 * The cold share is left null here: the hot-cap sweeps fill it.
 */
export async function payoutOverview(db: Db, config: Config, payouts: Payouts): Promise<OpsPayoutCoin[]> {
  const liabilities = await liabilitiesByCoin(db);
  const errors = await payoutErrors(db);
  return Promise.all(
    COINS.map(async (coin) => {
      const hot = await hotBalanceOf(payouts, coin);
      const count = (s: 'PENDING' | 'APPROVED' | 'BROADCAST' | 'FAILED') => countWithdrawals(db, s, coin);
      return {
        coinCode: coin,
        payouts: payouts.coins.has(coin),
        autoMax: config.withdrawals.autoMax[coin],
        hotAddress: payouts.payouts.get(coin)?.hotAddress ?? null,
        hotBalance: hot.balance,
        coldAddress: config.withdrawals.coldAddress[coin] ?? null,
        liabilities: fromUnits(liabilities.get(coin) ?? 0n),
        coldSharePct: null,
        queue: {
          pending: await count('PENDING'),
          approved: await count('APPROVED'),
          broadcast: await count('BROADCAST'),
          failed: await count('FAILED'),
        },
        lastError: hot.error ?? errors.get(coin) ?? null,
      };
    }),
  );
}
