import { describe, expect, it } from 'vitest';
import { openListing, operator, trader } from '../../api/src/modules/orders/test-kit.ts';
import { loginViaUi, signupViaApi, waitForPath } from './support/flows.ts';
import { e2eSuite } from './support/suite.ts';

const e2e = e2eSuite();

describe('home page against the real API', () => {
  it('shows the rate error when the price upstream fails and recovers on retry', async () => {
    e2e.server.prices.mode = 'error';
    const { context, page, errors } = await e2e.mobilePage();
    await page.goto('/');
    await page.getByTestId('prices-error').waitFor();
    expect(await page.getByTestId('prices-error').textContent()).toContain(
      'An error occurred while loading rate data.',
    );
    expect(await page.getByTestId('price-BTC').count()).toBe(0);

    e2e.server.prices.mode = 'ok';
    await page.getByTestId('prices-error').getByRole('button', { name: 'Retry' }).click();
    await page.getByTestId('price-BTC').waitFor();
    expect(await page.getByTestId('prices-error').count()).toBe(0);
    for (const coin of ['BTC', 'ETH', 'XRP', 'TRX']) {
      expect(await page.getByTestId(`price-${coin}`).isVisible()).toBe(true);
    }
    // Fake CoinGecko: BTC 140,123,456.78 won, -1.2345 % in 24 h.
    expect(await page.getByTestId('price-BTC').textContent()).toContain('140,123,457 KRW');
    expect(await page.getByTestId('price-BTC').textContent()).toContain('-1.23%');

    // The rates are persisted (localStorage `root`) and shown at once after a reload, even when the API fails.
    await expect.poll(() => page.evaluate(() => localStorage.getItem('root') ?? '')).toContain('prices');
    e2e.server.prices.mode = 'error';
    await page.route('**/api/v1/prices', (route) => route.abort());
    await page.reload();
    await page.getByTestId('price-BTC').waitFor();
    await page.unroute('**/api/v1/prices');
    e2e.server.prices.mode = 'ok';
    expect(errors).toEqual([]);
    await context.close();
  });

  it('switches the language to kr and jp, keeps the choice and falls back to en for invalid values', async () => {
    const { context, page } = await e2e.mobilePage();
    await page.goto('/');
    const cta = page.getByTestId('hero-trade');
    expect(await cta.textContent()).toBe('Start trading');

    await page.getByTestId('language-button').click();
    await page.getByTestId('language-kr').click();
    await expect.poll(() => cta.textContent()).toBe('거래하러 가기');
    expect(await page.getByTestId('header-login').textContent()).toBe('로그인');
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('kr');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ko');
    // The dropdown closes with its 200 ms animation.
    await page.getByTestId('language-jp').waitFor({ state: 'detached' });

    await page.reload();
    await expect.poll(() => cta.textContent()).toBe('거래하러 가기');

    await page.getByTestId('language-button').click();
    await page.getByTestId('language-jp').click();
    await expect.poll(() => cta.textContent()).toBe('取引を始める');
    expect(await page.getByTestId('header-login').textContent()).toBe('ログイン');

    await page.evaluate(() => localStorage.setItem('language', 'de'));
    await page.reload();
    await expect.poll(() => cta.textContent()).toBe('Start trading');
    await context.close();
  });

  it("resumes a visitor's carousel purchase after login", async () => {
    const { t } = e2e.server;
    const seller = await trader(t, 'BTC', '2');
    const op = await operator(t);
    await openListing(t, seller, op, { minQty: '0.001', maxQty: '0.5', unitPriceKrw: 140_000_000 });
    const buyer = await signupViaApi(e2e.server);

    const { context, page, errors } = await e2e.mobilePage();
    await page.goto('/');
    const card = page.getByTestId('best-listing').first();
    await card.waitFor();
    expect(await card.textContent()).toContain(seller.nickname);
    expect(await card.textContent()).toContain('0.001 - 0.5 BTC');
    expect(await card.textContent()).toContain('140,000,000 KRW');

    await card.getByTestId('buy-reserve').click();
    await waitForPath(page, '/login');
    const pending = await page.evaluate(() => JSON.parse(localStorage.getItem('pendingPurchase') ?? 'null'));
    expect(pending.purchaseType).toBe('reserve');
    expect(pending.tradeData.sellerNickname).toBe(seller.nickname);

    await loginViaUi(page, buyer);
    await waitForPath(page, '/purchase');
    // The purchase screen got its state (without it, it would return to /transaction).
    await page.waitForTimeout(500);
    expect(new URL(page.url()).pathname).toBe('/purchase');
    // the nickname is the seller's one public name (DECISIONS §11): the login id is never shown to others
    expect(await page.locator('main').textContent()).toContain(seller.nickname);
    expect(await page.evaluate(() => localStorage.getItem('pendingPurchase'))).toBeNull();
    await t.assertLedger();
    expect(errors).toEqual([]);
    await context.close();
  });
});
