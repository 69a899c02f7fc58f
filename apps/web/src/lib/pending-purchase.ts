import { local, readJson, STORAGE_KEYS, writeJson } from './storage';

/** A purchase a visitor started on the home carousel, resumed after login (SPEC §2 /login). */
export interface PendingPurchase {
  /** the listing as the card had it; /purchase parses it (features/trade/trade-state.ts) */
  tradeData: unknown;
  purchaseType: 'instant' | 'reserve';
  savedAt: number;
}

/** Pending purchases older than this are dropped rather than resumed unexpectedly much later. */
const MAX_AGE_MS = 30 * 60 * 1000;

export function savePendingPurchase(p: Omit<PendingPurchase, 'savedAt'>): void {
  writeJson(STORAGE_KEYS.pendingPurchase, { ...p, savedAt: Date.now() });
}

/** True when a fresh pending purchase waits for the login (read without taking it). */
export function hasPendingPurchase(): boolean {
  const p = readJson<PendingPurchase>(STORAGE_KEYS.pendingPurchase);
  return typeof p?.savedAt === 'number' && Date.now() - p.savedAt <= MAX_AGE_MS;
}

/** Returns and removes the pending purchase, if a fresh one exists. */
export function takePendingPurchase(): PendingPurchase | null {
  const p = readJson<PendingPurchase>(STORAGE_KEYS.pendingPurchase);
  local.remove(STORAGE_KEYS.pendingPurchase);
  if (!p || typeof p.tradeData !== 'object' || !['instant', 'reserve'].includes(p.purchaseType)) return null;
  if (typeof p.savedAt !== 'number' || Date.now() - p.savedAt > MAX_AGE_MS) return null;
  return p;
}
