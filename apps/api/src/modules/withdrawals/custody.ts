import { COINS, type Coin, fromUnits, type OpsCustodyCoin } from '@p2p/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { CoinPayout } from './payers.ts';
import type { Payouts } from './payouts.ts';
import { ledgerHoldings, liabilitiesByCoin, type QueueTotal, withdrawalTotals } from './queries.ts';
import { payoutErrors } from './repo.ts';
import { describeError } from './signer.ts';

/** Reads one chain figure; a node that fails gives null and says why. */
async function read(
  f: (() => Promise<bigint>) | undefined,
): Promise<{ units: bigint | null; error: string | null }> {
  if (!f) return { units: null, error: null };
  try {
    return { units: await f(), error: null };
  } catch (err) {
    return { units: null, error: describeError(err) };
  }
}

/**
 * `cold / liabilities` in percent with two decimals, from integers only ("83.50"); null when nothing is owed or
 * the cold balance is unknown.
 */
export function coldSharePct(cold: bigint | null, liabilities: bigint): string | null {
  if (cold === null || liabilities <= 0n) return null;
  const hundredths = (cold * 10_000n) / liabilities;
  return `${hundredths / 100n}.${(hundredths % 100n).toString().padStart(2, '0')}`;
}

/** Members are owed coins and the cold share is below `minPct` (whole percent) or cannot be read. */
export function coldShareBreached(cold: bigint | null, liabilities: bigint, minPct: number): boolean {
  if (liabilities <= 0n) return false;
  return cold === null || cold * 100n < BigInt(minPct) * liabilities;
}

/** What the console shows of one coin's chain side: hot balance, cold balance and why a read failed. */
async function chainSide(payout: CoinPayout | undefined, coldAddress: string | null) {
  const hot = await read(payout ? () => payout.hotBalance() : undefined);
  // Without a cold address nothing is in cold storage: 0, a figure the cold share can use.
  const balanceOf = payout?.balanceOf?.bind(payout);
  const cold = coldAddress
    ? await read(balanceOf ? () => balanceOf(coldAddress) : undefined)
    : { units: 0n, error: null };
  return { hot, cold };
}

/**
 * GET /ops/api/v1/chain/custody (DECISIONS §18): per coin of the registry, the hot address and what it holds
 * on chain, what the ledger says the platform holds, the cold address (COLD_ADDRESS_<COIN>) and what it holds,
 * members' liabilities, the cold share against COLD_SHARE_MIN_PCT with its breach flag and the external
 * withdrawals waiting per state with their totals. Coin amounts are decimal strings; a node that does not
 * answer leaves its figures null with `lastError`, it never fails the whole answer.
 */
export async function custodyOverview(db: Db, config: Config, payouts: Payouts): Promise<OpsCustodyCoin[]> {
  const [liabilities, holdings, totals, errors] = await Promise.all([
    liabilitiesByCoin(db),
    ledgerHoldings(db),
    withdrawalTotals(db),
    payoutErrors(db),
  ]);
  const minPct = config.withdrawals.coldShareMinPct;
  const queue = (coin: Coin, status: string) => {
    const q: QueueTotal = totals.get(`${coin}:${status}`) ?? { count: 0, units: 0n };
    return { count: q.count, total: fromUnits(q.units) };
  };
  return Promise.all(
    COINS.map(async (coin) => {
      const payout = payouts.payouts.get(coin);
      const coldAddress = config.withdrawals.coldAddress[coin] ?? null;
      const { hot, cold } = await chainSide(payout, coldAddress);
      const owed = liabilities.get(coin) ?? 0n;
      return {
        coinCode: coin,
        paidOnChain: payouts.coins.has(coin),
        hotAddresses: payout?.hotAddress ? [payout.hotAddress] : [],
        hotBalance: hot.units === null ? null : fromUnits(hot.units),
        ledgerHoldings: fromUnits(holdings.get(coin) ?? 0n),
        coldAddress,
        coldBalance: cold.units === null ? null : fromUnits(cold.units),
        liabilities: fromUnits(owed),
        coldSharePct: coldSharePct(cold.units, owed),
        coldShareMinPct: minPct,
        coldShareBreach: coldShareBreached(cold.units, owed, minPct),
        withdrawals: {
          pending: queue(coin, 'PENDING'),
          approved: queue(coin, 'APPROVED'),
          broadcast: queue(coin, 'BROADCAST'),
          failed: queue(coin, 'FAILED'),
        },
        lastError: hot.error ?? cold.error ?? errors.get(coin) ?? null,
      };
    }),
  );
}
