import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  BTC_PRICE,
  btcMarket,
  buyBody,
  operator,
  placeOrder,
} from '../../api/src/modules/orders/test-kit.ts';
import { screenshot, startInKorean } from './support/browser.ts';
import { e2eSuite } from './support/suite.ts';
import { type Member, uiLogin } from './trade-kit.ts';

const e2e = e2eSuite();

/** The page's widths: nothing may scroll sideways (scrollWidth within the viewport). */
async function widths(page: Page) {
  return page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    inner: window.innerWidth,
  }));
}

/** The right edge of the element must lie inside the viewport (not cut off). */
async function insideViewport(page: Page, testId: string): Promise<boolean> {
  const box = await page.getByTestId(testId).boundingBox();
  const inner = await page.evaluate(() => window.innerWidth);
  return box !== null && box.x >= 0 && box.x + box.width <= inner;
}

/** Every link and button of the header ends inside the viewport. */
async function headerInside(page: Page): Promise<boolean> {
  return page.evaluate(() =>
    [...document.querySelectorAll('header a, header button')].every((el) => {
      const r = el.getBoundingClientRect();
      return r.left >= 0 && r.right <= window.innerWidth;
    }),
  );
}

describe('layout at 360 and 390 px: header, bottom tab bar, live orders on home', () => {
  it('fits with badges, tabs between home / trade / wallet / my info, and shows the live order', async () => {
    const { t } = e2e.server;
    const op = await operator(t);
    // The signed-in member is a seller with a waiting order (header badge) who also buys (live order).
    const { seller, buyer, id } = await btcMarket(t, op);
    const placed = await placeOrder(t, buyer, buyBody(id, 1_000_000, BTC_PRICE, buyer.wallet.id));
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);

    const { context, page, errors } = await e2e.mobilePage();
    await startInKorean(page);
    await uiLogin(page, seller as unknown as Member);
    await page.getByTestId('bottom-tabs').waitFor();
    await expect.poll(() => page.getByTestId('header-waiting').textContent()).toContain('1');
    await page.getByTestId('live-order').first().waitFor();
    expect(await page.getByTestId('live-orders').textContent()).toContain('진행 중인 주문');
    expect(await page.getByTestId('live-orders').textContent()).toContain('1,000,000원');

    for (const width of [390, 360]) {
      await page.setViewportSize({ width, height: 844 });
      for (const path of ['/', '/transaction', '/myinfo', '/account']) {
        await page.goto(path);
        await page.getByTestId('bottom-tabs').waitFor();
        await page.waitForLoadState('networkidle').catch(() => undefined);
        const w = await widths(page);
        expect(w.scroll, `${path} at ${width}`).toBeLessThanOrEqual(w.inner);
        // every control of the header lies inside the screen (home: language, 알림 with its badge, 로그아웃)
        expect(await headerInside(page), `header at ${width} on ${path}`).toBe(true);
        if (path === '/') {
          expect(await insideViewport(page, 'header-logout'), `logout at ${width}`).toBe(true);
          expect(await insideViewport(page, 'header-notifications'), `bell at ${width}`).toBe(true);
        }
      }
    }
    await page.goto('/');
    await page.getByTestId('live-order').first().waitFor();
    await screenshot(page, 'layout-home-360', 'kr');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'layout-home-390', 'kr');

    // The tabs take the member where they say, and mark where they are.
    await page.getByTestId('nav-wallet').click();
    await page.getByTestId('tabpanel-wallet').waitFor();
    expect(await page.getByTestId('nav-wallet').getAttribute('aria-current')).toBe('page');
    await page.getByTestId('header-mypage').click();
    await page.getByTestId('tabpanel-purchase').waitFor();
    expect(await page.getByTestId('header-mypage').getAttribute('aria-current')).toBe('page');
    await page.getByTestId('nav-trade').click();
    await page.waitForURL((u) => u.pathname === '/transaction');
    expect(await page.getByTestId('nav-trade').getAttribute('aria-current')).toBe('page');
    await page.getByTestId('nav-home').click();
    await page.waitForURL((u) => u.pathname === '/');

    // The live order opens its detail (the seller's side of the order).
    await page.getByTestId('live-order').first().click();
    await page.waitForURL((u) => u.pathname === '/view_details');
    expect(new URL(page.url()).searchParams.get('type')).toBe('sell-history');

    await page.evaluate(() => localStorage.setItem('language', 'en'));
    await page.goto('/');
    await page.getByTestId('live-order').first().waitFor();
    expect(await page.getByTestId('bottom-tabs').textContent()).toContain('Wallet');
    await screenshot(page, 'layout-home-390', 'en');
    expect(errors).toEqual([]);
    await context.close();
  });
});
