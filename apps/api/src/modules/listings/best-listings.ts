import type { Db } from '../../db/client.ts';
import { everyInterval } from '../../interval-job.ts';
import { refreshListingTrades } from './queries.ts';

/**
 * The best listings job (issue 27): rewrites the home carousel's figures (stats_listing_trades) at start and
 * every `intervalMs`, so GET /api/v1/sell-listings/best reads a small table instead of counting a week of
 * orders per request. Every instance ticks; one rewrites at a time (refreshListingTrades' lock). A figure is
 * at most `intervalMs` old, the carousel is cached 15 s by browsers anyway. Returns stop() (waits for a run in
 * progress). `intervalMs` 0 = off (the tests refresh by hand).
 */
export function startBestListingsJob(
  db: Db,
  intervalMs: number,
  log: { error: (obj: unknown, msg: string) => void },
): () => Promise<void> {
  const refresh = () => refreshListingTrades(db);
  return everyInterval(intervalMs, refresh, (err) => log.error({ err }, 'best listings refresh failed'), {
    runNow: true,
  });
}
