import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser.ts';
import { e2eSuite } from './support/suite.ts';

/**
 * The route error screen (issue 26 item 2) when a screen's lazy chunk does not arrive (a flaky network, a
 * deploy that replaced the files): Playwright aborts that chunk's request, and the member sees a localized
 * message with a way back and a retry, never React Router's English default or a stack trace.
 */

/** Aborts every request for the page chunk `name` (Vite's assets/<name>-<hash>.js) until undone. */
async function blockChunk(page: Page, name: string): Promise<() => Promise<void>> {
  const re = new RegExp(`/assets/${name}-[^/]*\\.js$`);
  let blocked = 0;
  const match = (u: URL) => re.test(u.pathname);
  const handler = async (route: import('playwright-core').Route) => {
    blocked += 1;
    await route.abort('failed');
  };
  await page.route(match, handler);
  return async () => {
    expect(blocked).toBeGreaterThan(0);
    await page.unroute(match, handler);
  };
}

/** The error screen is up, in Korean, with both ways on and nothing of a developer's error. */
async function expectRouteError(page: Page): Promise<void> {
  const card = page.getByTestId('route-error');
  await card.waitFor();
  await card.getByText('화면을 표시하지 못했어요', { exact: false }).waitFor();
  await page.getByTestId('route-error-home').waitFor();
  await page.getByTestId('route-error-retry').waitFor();
  const text = (await page.locator('body').textContent()) ?? '';
  expect(text).not.toContain('Unexpected Application Error');
  expect(text).not.toMatch(/TypeError|Failed to fetch|at \S+ \(|\.js:\d+/);
}

describe('a lazy route chunk that fails to load', () => {
  const e2e = e2eSuite();

  it('on a first visit: the localized error screen, 홈으로 leads home, 다시 시도 loads the screen once the chunk comes', async () => {
    const { context, page, errors } = await e2e.mobilePage({ locale: 'ko-KR' });
    const unblock = await blockChunk(page, 'ContactPage');
    await page.goto('/contact');
    await expectRouteError(page);
    await screenshot(page, 'route-error', 'kr');
    await page.getByTestId('route-error-home').click();
    await page.waitForURL((u) => u.pathname === '/');
    expect(await page.getByTestId('route-error').count()).toBe(0);
    // back on the failed screen, the network healed: 다시 시도 shows it
    await page.goto('/contact');
    await expectRouteError(page);
    await unblock();
    await page.getByTestId('route-error-retry').click();
    await page.waitForLoadState('load');
    await expect.poll(() => page.getByTestId('route-error').count()).toBe(0);
    await expect.poll(() => page.locator('header h1').count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('on a tap inside the app: the same screen in place of the page, and the app keeps working', async () => {
    const { context, page, errors } = await e2e.mobilePage({ locale: 'en-US' });
    await page.goto('/');
    await page.getByTestId('header-login').waitFor();
    const unblock = await blockChunk(page, 'LoginPage');
    await page.getByTestId('header-login').click();
    await page.waitForURL((u) => u.pathname === '/login');
    const card = page.getByTestId('route-error');
    await card.waitFor();
    await card.getByRole('heading').waitFor();
    expect((await page.locator('body').textContent()) ?? '').not.toContain('Unexpected Application Error');
    await screenshot(page, 'route-error', 'en');
    await unblock();
    await page.getByTestId('route-error-home').click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByTestId('header-login').click();
    await page.getByTestId('login-submit').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
