import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SCREENSHOT_DIR, setStoredLanguage } from './support/browser.ts';
import { ensureWebBuild } from './support/build.ts';
import { startE2EServer } from './support/server.ts';
import { e2eSuite } from './support/suite.ts';

/**
 * The service worker's "새 버전" prompt. The app is built once and served from a copy; the member's
 * browser registers that worker; then a new deployment changes sw.js on disk (as a release would), the
 * browser finds the waiting worker, the prompt appears, and its button activates the new worker and reloads.
 */
let dist: string;
const e2e = e2eSuite(() => {
  dist = mkdtempSync(join(tmpdir(), 'pwa-e2e-'));
  cpSync(ensureWebBuild(), dist, { recursive: true });
  return startE2EServer({ WEB_DIST_DIR: dist });
});

afterAll(async () => {
  rmSync(dist, { recursive: true, force: true });
});

/** The release: sw.js changes (and its precompressed copies go, so the server sends the new bytes). */
function deployNewWorker(): void {
  rmSync(join(dist, 'sw.js.br'), { force: true });
  rmSync(join(dist, 'sw.js.gz'), { force: true });
  appendFileSync(
    join(dist, 'sw.js'),
    `\nself.addEventListener('message', (e) => { if (e.data && e.data.type === 'E2E_VERSION') e.source.postMessage('v2'); });\n`,
  );
}

describe('service worker update prompt', () => {
  it('a changed sw.js brings the 새 버전 prompt; its button activates the new worker and reloads', async () => {
    // An automated browser (navigator.webdriver) like any other: the worker registers with no opt-in.
    const { context, page, errors } = await e2e.mobilePage({ serviceWorkers: 'allow' });
    expect(await page.evaluate(() => navigator.webdriver)).toBe(true);
    await setStoredLanguage(context, 'kr');
    await page.goto('/');
    await expect
      .poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), { timeout: 30_000 })
      .toBe(true);
    // the first install asks nothing: there was no version before it
    expect(await page.getByTestId('pwa-update').count()).toBe(0);

    deployNewWorker();
    // What the browser does on its own at the next navigation or after 24 h, asked for now.
    await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.getRegistration();
      await reg?.update();
    });
    const prompt = page.getByTestId('pwa-update');
    await prompt.waitFor({ timeout: 30_000 });
    expect(await prompt.textContent()).toContain('새 버전이 나왔어요.');
    expect(
      await page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting)),
    ).toBe(true);
    for (const button of await prompt.getByRole('button').all()) {
      expect((await button.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
    }
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'kr-pwa-update.png'), animations: 'disabled' });

    const reloaded = page.waitForEvent('load', { timeout: 30_000 });
    await prompt.getByRole('button', { name: '새 버전 보기' }).click();
    await reloaded;
    // the page now runs under the new worker, which answers what only it knows
    const version = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          navigator.serviceWorker.addEventListener('message', (e) => resolve(String(e.data)), { once: true });
          navigator.serviceWorker.controller?.postMessage({ type: 'E2E_VERSION' });
          setTimeout(() => resolve('no answer'), 5_000);
        }),
    );
    expect(version).toBe('v2');
    expect(
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting ?? null),
    ).toBe(null);
    expect(await page.getByTestId('pwa-update').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
