import type { Db } from '../../db/client.ts';
import { FOLD_BATCH, foldOpsCounts } from './counts-repo.ts';

/**
 * The console counts' fold (issue 27, 037_ops_counts.sql): every `intervalMs` this instance folds the deltas
 * the row triggers appended into ops_counts, a batch of FOLD_BATCH at a time until fewer are left, so the
 * summary's read stays a handful of rows. Every instance folds; concurrent folds are safe (foldOpsCounts), a
 * missed fold only leaves more deltas for the read to add. Returns stop() (waits for a fold in flight).
 * `intervalMs` 0 = off (the tests fold by hand; the read is exact either way).
 */
export function startOpsCountsFold(
  db: Db,
  intervalMs: number,
  log: { error: (obj: unknown, msg: string) => void },
): () => Promise<void> {
  if (intervalMs <= 0) return async () => undefined;
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const foldAll = async () => {
    while (!stopped && (await foldOpsCounts(db)) >= FOLD_BATCH) {
      // a burst (an expiry sweep, a bulk suspension) left more than a batch: take the next one now
    }
  };
  const tick = () => {
    if (running || stopped) return;
    running = foldAll()
      .catch((err) => log.error({ err }, 'ops counts fold failed'))
      .finally(() => {
        running = null;
      });
  };
  const handle = setInterval(tick, intervalMs);
  handle.unref();
  return async () => {
    stopped = true;
    clearInterval(handle);
    await running;
  };
}
