import type { Wallet } from '@p2p/contract';

/** Navigation state of /wallet, /withdraw and /deposit (SPEC §2: wallet data passed in navigation state). */
export interface WalletNavState {
  walletId: number;
}

/** The wallet id carried in navigation state, or null. */
export function walletIdOf(state: unknown): number | null {
  if (typeof state !== 'object' || state === null) return null;
  const s = state as { walletId?: unknown; wallet?: { id?: unknown } };
  const id = s.walletId ?? s.wallet?.id;
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : null;
}

/** Picks the navigated wallet from the member's list. */
export function pickWallet(wallets: Wallet[] | undefined, id: number | null): Wallet | undefined {
  return id === null ? undefined : wallets?.find((w) => w.id === id);
}
