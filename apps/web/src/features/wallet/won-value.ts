import type { CoinPrice, Wallet } from '@p2p/contract';
import { fromUnits, toUnits, wonValueOf } from '@p2p/contract/money.ts';
import { usePrices } from '../home/api/get-prices';

export { wonValueOf };

/** A wallet's holding: what is available plus what its listings hold in escrow (DECISIONS §4). */
export function holdingOf(w: Pick<Wallet, 'balance' | 'escrowBalance'>): string {
  return fromUnits(toUnits(w.balance) + toUnits(w.escrowBalance));
}

/**
 * The won value of each wallet's holding and their total at the current rates, or null per coin
 * while its rate is unknown (the screens then show no estimate rather than a wrong one).
 */
export function useWonValues(wallets: readonly Wallet[] | undefined): {
  byWallet: Map<number, number | null>;
  total: number | null;
} {
  const prices = usePrices().data?.prices;
  const rate = (coin: string): CoinPrice | undefined => prices?.find((p) => p.coin === coin);
  const byWallet = new Map<number, number | null>();
  let total: number | null = prices && wallets ? 0 : null;
  for (const w of wallets ?? []) {
    const p = rate(w.coinCode);
    const won = p ? wonValueOf(holdingOf(w), p.krw) : null;
    byWallet.set(w.id, won);
    if (won === null) total = null;
    else if (total !== null) total += won;
  }
  return { byWallet, total };
}
