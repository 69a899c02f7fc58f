/**
 * Runs `work` every `intervalMs` on this instance, one run at a time: a tick while a run is still going is
 * skipped, so a slow run never piles up behind itself. A failed run goes to `onError` and the next tick tries
 * again. `runNow` starts a first run at once instead of after one interval. The timer does not keep the process
 * alive. Returns stop(): no further runs, and it waits for a run in flight. `intervalMs` 0 or less = never (the
 * tests run the work by hand); stop() then resolves at once. Used by the jobs every instance runs (order timers,
 * best listings, kept counts, retention purge, ledger check).
 */
export function everyInterval(
  intervalMs: number,
  work: () => Promise<unknown>,
  onError: (err: unknown) => void,
  o: { runNow?: boolean } = {},
): () => Promise<void> {
  if (intervalMs <= 0) return async () => undefined;
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = work()
      .catch(onError)
      .finally(() => {
        running = null;
      });
  };
  if (o.runNow) tick();
  const handle = setInterval(tick, intervalMs);
  handle.unref();
  return async () => {
    stopped = true;
    clearInterval(handle);
    await running;
  };
}
