import type { SellerStats } from '@p2p/contract';
import type { Tx } from '../../db/client.ts';
import { lockSellerStats, writeSellerStats } from './repo.ts';

/**
 * The sellers' track record (DECISIONS §11), a summary row per seller written in the same transaction as
 * the order ending that changes it, so a card reads one row instead of scanning orders.
 * What counts (docs/engineering-log.md "Trade protocol"): completedTrades = every COMPLETED order as seller;
 * the 30-day rate and median use only the endings the seller decided: released by the seller (success,
 * with its release time), rejected by the seller or released by an operator (failure). Buyer cancels,
 * expiries and operator cancels are not the seller's doing and do not count.
 */

const WINDOW_SEC = 30 * 24 * 3600;
/** Endings kept per seller: a seller with more than this in 30 days is rated on their latest 100. */
const KEEP = 100;
/** Below this many decided endings in 30 days the rate and the median are null (DECISIONS §11). */
const MIN_ENDINGS = 5;

type Entry = [endedEpochSec: number, released: number, releaseSec: number];

/** How an order ending counts for its seller (null: not the seller's doing). */
export type SellerOutcome = { kind: 'released'; releaseSec: number } | { kind: 'failed' } | null;

/**
 * Records one ending for `sellerId` (call inside the ending's transaction, after the order row is locked):
 * `completed` bumps completedTrades; `outcome` joins the 30-day window. The stats row is locked last, after
 * the listing and the order, so the lock order stays the same everywhere.
 */
export async function recordEnding(
  tx: Tx,
  sellerId: number,
  completed: boolean,
  outcome: SellerOutcome,
): Promise<void> {
  if (!completed && outcome === null) return;
  const row = await lockSellerStats(tx, sellerId);
  const now = Math.floor(Date.now() / 1000);
  let recent = (row.recent as Entry[]).filter((e) => e[0] > now - WINDOW_SEC);
  if (outcome) {
    recent.push(outcome.kind === 'released' ? [now, 1, Math.max(0, outcome.releaseSec)] : [now, 0, -1]);
    recent = recent.slice(-KEEP);
  }
  await writeSellerStats(tx, sellerId, completed ? 1 : 0, recent);
}

/**
 * The wire form of a seller's record from their stats row (absent = no ended trades yet) and signup time.
 * The 30-day window is applied again here, so entries that aged out since the last write do not count.
 */
export function toSellerStats(
  completedTrades: string | number | null,
  recent: unknown,
  memberSince: Date | string,
  nowMs = Date.now(),
): SellerStats {
  const from = Math.floor(nowMs / 1000) - WINDOW_SEC;
  const live = ((recent ?? []) as Entry[]).filter((e) => e[0] > from);
  const releases = live
    .filter((e) => e[1] === 1)
    .map((e) => e[2])
    .sort((a, b) => a - b);
  const enough = live.length >= MIN_ENDINGS;
  return {
    completedTrades: Number(completedTrades ?? 0),
    completionRatePct: enough ? Math.floor((releases.length * 100) / live.length) : null,
    medianReleaseSec: releases.length >= MIN_ENDINGS ? median(releases) : null,
    memberSince: new Date(memberSince).toISOString(),
  };
}

/** The median of a sorted non-empty list of whole seconds (the lower middle for an even count). */
function median(sorted: number[]): number {
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
}
