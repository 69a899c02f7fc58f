import { defineConfig } from 'vitest/config';
import { RetriedTestsReporter } from './apps/web/e2e/support/retried-reporter';
import { PREACT_ALIASES } from './apps/web/vite.aliases';

export default defineConfig({
  test: {
    reporters: ['default', new RetriedTestsReporter()],
    projects: [
      { test: { name: 'contract', include: ['packages/contract/src/**/*.test.ts'] } },
      {
        // DECISIONS §18: the signer and its protocol. Its tests start the real signer process and real nodes.
        test: {
          name: 'signer',
          include: ['packages/signer-protocol/src/**/*.test.ts', 'apps/signer/src/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          pool: 'forks',
        },
      },
      {
        test: {
          name: 'api',
          include: ['apps/api/src/**/*.test.ts', 'apps/api/test/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        // The web app runs on Preact (apps/web/vite.aliases.ts): its unit tests resolve react the same way.
        resolve: { alias: PREACT_ALIASES },
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['apps/web/e2e/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          // Two files at a time (package.json passes --maxWorkers=2): each has its own server, database and
          // browser, and a browser test waits on the network and on timers more than it computes, so two
          // share this 2-core machine well (e2e 659 s -> 437 s measured, no retry).
          // One retry for browser tests only: a browser, a server and its database share the CPU. The failed
          // attempt of a test that passed on its retry is printed at the end (RetriedTestsReporter); two
          // failures in a row fail the run.
          retry: 1,
        },
      },
    ],
  },
});
