import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';

/** How long requests in flight may take to finish after the listener closed before the process gives up. */
const DRAIN_TIMEOUT_MS = 10_000;

/**
 * Starts the API (and the built web app) on PORT. On SIGINT/SIGTERM it drains (DECISIONS §14): /readyz
 * answers 503 at once, the listener stays open SHUTDOWN_GRACE_SEC so a load balancer can notice (a second
 * signal ends that wait), then it stops taking connections, lets requests in flight finish (DRAIN_TIMEOUT_MS at most, else exit 1), closes
 * Redis and the database and exits 0.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp(config);
  let closing = false;
  const graceOver = new AbortController();
  const shutdown = async (signal: string) => {
    if (closing) {
      if (!graceOver.signal.aborted) app.log.info({ signal }, 'second signal: grace period cut short');
      graceOver.abort();
      return;
    }
    closing = true;
    app.lifecycle.draining = true;
    app.log.info({ signal, graceSec: config.shutdownGraceSec }, 'shutting down: draining');
    if (config.shutdownGraceSec > 0) {
      await sleep(config.shutdownGraceSec * 1000, undefined, { signal: graceOver.signal }).catch(
        () => undefined,
      );
    }
    app.log.info('closing the listener; waiting for requests in flight');
    const timer = setTimeout(() => {
      app.log.error('requests still running after the drain timeout; exiting');
      process.exit(1);
    }, DRAIN_TIMEOUT_MS);
    timer.unref();
    await app.close();
    app.log.info('stopped');
    process.exit(0);
  };
  const onSignal = (signal: string) => {
    shutdown(signal).catch((err: unknown) => {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    });
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
}

main().catch((err: unknown) => {
  process.stderr.write(`failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
