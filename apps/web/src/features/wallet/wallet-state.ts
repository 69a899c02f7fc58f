import type { Wallet } from '@p2p/contract';
import { z } from 'zod';

/** zod's int() is a safe integer. */
const walletId = z.number().int();

/**
 * Navigation state of /wallet, /withdraw and /deposit (SPEC §2: wallet data passed in navigation state):
 * `{walletId}`, or `{wallet: {id}}` as SPEC's screens pass the wallet itself.
 */
const walletNavState = z.union([
  z.object({ walletId }),
  z.object({ wallet: z.object({ id: walletId }) }).transform((s) => ({ walletId: s.wallet.id })),
]);

/** The wallet id carried in navigation state, or null. */
export function walletIdOf(state: unknown): number | null {
  return walletNavState.safeParse(state).data?.walletId ?? null;
}

/** Picks the navigated wallet from the member's list. */
export function pickWallet(wallets: Wallet[] | undefined, id: number | null): Wallet | undefined {
  return id === null ? undefined : wallets?.find((w) => w.id === id);
}
