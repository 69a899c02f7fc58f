import { COINS } from '@p2p/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/browser.ts';
import { e2eSuite } from './support/suite.ts';
import {
  apiOk,
  approvePending,
  createWallet,
  fund,
  operatorToken,
  signedUpMember,
  switchLanguage,
  uiLogin,
} from './trade-kit.ts';

/**
 * The trade list's infinite scroll (SPEC §2, §9: 20 per page, next page within 100 px of the bottom) on
 * 45 open listings: a second page arrives on scrolling, then the third, then the end text.
 */
const e2e = e2eSuite();

describe('trade list infinite scroll', () => {
  beforeAll(async () => {
    const op = await operatorToken(e2e.server);
    // One active listing per seller and coin (DECISIONS §4): 12 sellers x 4 coins, 45 listings.
    let made = 0;
    while (made < 45) {
      const seller = await signedUpMember(e2e.server);
      for (const coin of COINS) {
        if (made === 45) break;
        const w = await createWallet(e2e.server, seller.token, coin);
        await fund(e2e.server, op, coin, w.address, '10', w.destinationTag);
        await apiOk(e2e.server, 'POST', '/api/v1/sell-listings', seller.token, {
          walletId: w.id,
          minQty: '0.1',
          maxQty: '1',
          unitPriceKrw: 1_000_000 + made * 1000,
          bankName: '신한은행',
          accountNo: '11012345678',
          stepUp: { password: seller.password },
        });
        made += 1;
      }
    }
    expect(await approvePending(e2e.server, op)).toHaveLength(45);
  });

  it('loads 20, then 40 on scrolling to the bottom, then 45 with the end text', async () => {
    const buyer = await signedUpMember(e2e.server);
    const { page } = await e2e.mobilePage();
    await uiLogin(page, buyer);
    await page.goto('/transaction');
    const cards = page.getByTestId('listing-card');
    await expect.poll(() => cards.count()).toBe(20);
    expect(await page.getByTestId('total-count').textContent()).toBe('Total 45');
    await page.waitForTimeout(300);
    expect(await cards.count()).toBe(20);

    await page.mouse.wheel(0, 100_000);
    await expect.poll(() => cards.count()).toBe(40);
    await page.mouse.wheel(0, 100_000);
    await expect.poll(() => cards.count()).toBe(45);
    await page.getByTestId('trade-list-status').getByText('All trade listings have been loaded.').waitFor();

    await page.getByTestId('sort').selectOption('PRICE_DESC');
    await expect.poll(() => cards.first().getByTestId('listing-price').textContent()).toBe('1,044,000 KRW');
    await page.getByTestId('coin-tab-ETH').click();
    await expect.poll(() => page.getByTestId('total-count').textContent()).toBe('Total 11');
    await page.getByTestId('trade-list-status').getByText('All trade listings have been loaded.').waitFor();
    await screenshot(page, 'trade-transaction-end', 'en');

    await switchLanguage(page, 'kr');
    await page.getByTestId('coin-tab-ETH').click();
    await expect.poll(() => page.getByTestId('total-count').textContent()).toBe('총 11건');
    await page.getByTestId('trade-list-status').getByText('모든 거래 정보를 불러왔어요.').waitFor();
    await screenshot(page, 'trade-transaction-end', 'kr');
  });

  it('comes back at the same place after a purchase screen, and at the top on a new visit', async () => {
    const buyer = await signedUpMember(e2e.server);
    const { page, errors } = await e2e.mobilePage();
    await uiLogin(page, buyer);
    await page.goto('/transaction?coin=all&sort=CREATED_DESC');
    const cards = page.getByTestId('listing-card');
    await expect.poll(() => cards.count()).toBe(20);
    const card = cards.nth(12);
    await card.scrollIntoViewIfNeeded();
    const left = await page.evaluate(() => window.scrollY);
    expect(left).toBeGreaterThan(500);
    await card.getByTestId('buy-instant').click();
    await page.waitForURL((u) => u.pathname === '/purchase');
    await page.goBack();
    await page.waitForURL((u) => u.pathname === '/transaction');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(left);

    await page.goto('/');
    await page.getByTestId('best-listing').first().waitFor();
    await page.evaluate(() => document.querySelector<HTMLAnchorElement>('a[href="/transaction"]')?.click());
    await page.waitForURL((u) => u.pathname === '/transaction');
    await expect.poll(() => cards.count()).toBe(20);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(errors).toEqual([]);
  });
});
