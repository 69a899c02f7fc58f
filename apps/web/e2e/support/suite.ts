import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser, type MobilePage, newMobilePage, type ServiceWorkers } from './browser.ts';
import { type E2EServer, startE2EServer } from './server.ts';

/** One browser test file's (or describe block's) system, started before its tests and stopped after them. */
export interface E2ESuite {
  /** The API on its fresh database serving the built web app (read it inside tests and hooks). */
  readonly server: E2EServer;
  /** Headless Chromium (read it inside tests and hooks). */
  readonly browser: Browser;
  /**
   * A fresh context (empty storage, en-US unless `locale`) at 390x844 on the server, page errors collected
   * into `errors`; the service worker blocked unless `serviceWorkers: 'allow'`.
   */
  mobilePage(o?: { serviceWorkers?: ServiceWorkers; locale?: string }): Promise<MobilePage>;
}

/**
 * Registers the beforeAll that starts the server and the browser and the afterAll that closes them, in the
 * current file or describe block; the block's own hooks run after the start and before the stop (Vitest runs
 * before-hooks in order and after-hooks in reverse). `start` is the configuration overrides for
 * startE2EServer, or a function that starts the server itself (ops-kit's startOpsServer).
 */
export function e2eSuite(start: Record<string, string> | (() => Promise<E2EServer>) = {}): E2ESuite {
  let server: E2EServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = typeof start === 'function' ? await start() : await startE2EServer(start);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  const suite: E2ESuite = {
    get server() {
      if (!server) throw new Error('the e2e server is not started yet: read it inside a test or hook');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('the browser is not started yet: read it inside a test or hook');
      return browser;
    },
    mobilePage: (o) => newMobilePage(suite.browser, suite.server.baseUrl, o),
  };
  return suite;
}
