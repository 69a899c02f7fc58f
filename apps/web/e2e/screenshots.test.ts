import type { Page } from 'playwright-core';
import { beforeAll, describe, it } from 'vitest';
import { openListing, operator, trader } from '../../api/src/modules/orders/test-kit.ts';
import { screenshot, setStoredLanguage } from './support/browser.ts';
import { type NewMember, newMember, signupViaApi, waitForPath } from './support/flows.ts';
import { e2eSuite } from './support/suite.ts';

/** Screenshots of every member screen in en and kr at 390x844 (test-output/screenshots, not committed). */

const e2e = e2eSuite();
let member: NewMember;

beforeAll(async () => {
  const seller = await trader(e2e.server.t, 'ETH', '10');
  await openListing(e2e.server.t, seller, await operator(e2e.server.t), {
    minQty: '0.01',
    maxQty: '3',
    unitPriceKrw: 5_000_000,
  });
  member = await signupViaApi(e2e.server);
});

async function login(page: Page, m: NewMember) {
  const r = await e2e.server.t.call<{ accessToken: string; refreshToken: string }>(
    'POST',
    '/api/v1/auth/login',
    {
      body: { loginId: m.loginId, password: m.password },
    },
  );
  await page.evaluate((tokens) => {
    localStorage.setItem('accessToken', tokens.accessToken);
    localStorage.setItem('refreshToken', tokens.refreshToken);
  }, r.body.returnData);
}

for (const lang of ['en', 'kr'] as const) {
  describe(`screens in ${lang}`, () => {
    it('public screens', async () => {
      const { context, page } = await e2e.mobilePage();
      await setStoredLanguage(context, lang);
      await page.goto('/');
      await page.getByTestId('price-BTC').waitFor();
      await page.getByTestId('best-listing').first().waitFor();
      await screenshot(page, 'home', lang);
      await page.getByTestId('language-button').click();
      await screenshot(page, 'home-language-menu', lang);
      await page.keyboard.press('Escape');
      await page.getByTestId('footer-privacy').click();
      await page.getByTestId('legal-privacy').waitFor();
      await page.waitForTimeout(350);
      await screenshot(page, 'home-privacy-modal', lang);

      e2e.server.prices.mode = 'error';
      await page.evaluate(() => localStorage.removeItem('root'));
      const fresh = await e2e.mobilePage();
      await setStoredLanguage(fresh.context, lang);
      await fresh.page.route('**/api/v1/prices', (route) =>
        route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: '{"returnCode":503,"returnMessage":"PRICE_UNAVAILABLE","returnData":null}',
        }),
      );
      await fresh.page.goto('/');
      await fresh.page.getByTestId('prices-error').waitFor();
      await screenshot(fresh.page, 'home-prices-error', lang);
      await fresh.context.close();
      e2e.server.prices.mode = 'ok';

      for (const [path, name] of [
        ['/login', 'login'],
        ['/findid', 'findid'],
        ['/contact', 'contact'],
      ] as const) {
        await page.goto(path);
        await page.locator('main').waitFor();
        await screenshot(page, name, lang);
      }
      await context.close();
    });

    it('signup flow', async () => {
      const { context, page } = await e2e.mobilePage();
      await setStoredLanguage(context, lang);
      const m = newMember();
      await page.goto('/agreement');
      await page.getByTestId('agreement-next').click();
      await screenshot(page, 'agreement-error', lang);
      await page.getByTestId('view-terms').click();
      await page.getByTestId('legal-terms').waitFor();
      await page.waitForTimeout(350);
      await screenshot(page, 'agreement-terms-modal', lang);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await page.getByTestId('agree-all').check();
      await page.getByTestId('agreement-next').click();
      await waitForPath(page, '/signup');

      const inputs = page.locator('main input');
      await inputs.nth(1).fill('ab');
      await inputs.nth(3).fill('abcdefgh');
      await inputs.nth(4).fill('abc');
      await screenshot(page, 'signup-errors', lang);
      await inputs.nth(0).fill(m.name);
      await inputs.nth(1).fill(m.loginId);
      await page.getByTestId('check-id').click();
      await inputs.nth(2).fill(m.nickname);
      await page.getByTestId('check-nickname').click();
      await inputs.nth(3).fill(m.password);
      await inputs.nth(4).fill(m.password);
      await page.locator('input[name="phone"]').fill(m.localPhone);
      const sentAt = Date.now();
      await page.getByTestId('send-code').click();
      await page.locator('input[name="code"]').fill(await e2e.server.smsCode(m.phoneE164, sentAt));
      await page.getByTestId('verify-code').click();
      await page.waitForFunction(() => {
        const b = document.querySelector('[data-testid="verify-code"]');
        return b instanceof HTMLButtonElement && b.disabled;
      });
      await page.waitForTimeout(5_200);
      await screenshot(page, 'signup-verified', lang);
      await page.getByTestId('signup-submit').click();
      await waitForPath(page, '/complete');
      await screenshot(page, 'complete', lang);
      await context.close();
    });

    it('find password steps', async () => {
      const { context, page } = await e2e.mobilePage();
      await setStoredLanguage(context, lang);
      await page.goto('/findpw');
      await screenshot(page, 'findpw-1-id', lang);
      await page.locator('main input').first().fill(member.loginId);
      await page.locator('main button[type="submit"]').click();
      await page.getByTestId('findpw-step-code').waitFor();
      // The member is the same in every language: the code must be this run's, not the last language's.
      const sentAt = Date.now();
      await page.getByTestId('send-code').click();
      await page.waitForTimeout(400);
      await screenshot(page, 'findpw-2-code', lang);
      await page
        .locator('input[autocomplete="one-time-code"]')
        .fill(await e2e.server.smsCode(member.phoneE164, sentAt));
      await page.locator('main button[type="submit"]').click();
      await page.getByTestId('findpw-step-password').waitFor();
      await page.locator('input[type="password"]').first().fill('short');
      await page.locator('main button[type="submit"]').click();
      await screenshot(page, 'findpw-3-password', lang);
      await context.close();
    });

    it('member screens', async () => {
      const { context, page } = await e2e.mobilePage();
      await setStoredLanguage(context, lang);
      await page.goto('/');
      await login(page, member);
      // The token check shows the full-screen loader while GET /my is slow: delayed inside the page, since
      // Playwright's screenshot waits for intercepted requests.
      const slow = await e2e.mobilePage();
      await setStoredLanguage(slow.context, lang);
      await slow.context.addInitScript(() => {
        const original = window.fetch.bind(window);
        window.fetch = (input, init) =>
          String(input).endsWith('/my')
            ? new Promise((r) => setTimeout(r, 5_000)).then(() => original(input, init))
            : original(input, init);
      });
      await slow.page.goto('/');
      await login(slow.page, member);
      await slow.page.goto('/myinfo');
      await slow.page.getByTestId('fullscreen-loader').waitFor();
      await screenshot(slow.page, 'auth-loader', lang, { idle: false });
      await slow.context.close();
      await page.goto('/myinfo');
      await page.getByTestId('greeting').waitFor();
      await screenshot(page, 'myinfo', lang);
      await page.goto('/');
      await page.getByTestId('header-mypage').waitFor();
      await screenshot(page, 'home-member', lang);
      await page.goto('/account');
      await page.getByTestId('acc-nickname').waitFor();
      await screenshot(page, 'account', lang);
      await page.getByTestId('to-modify').click();
      await waitForPath(page, '/modify');
      await page.getByTestId('bank-select').selectOption('기타');
      await page.getByTestId('modify-submit').click();
      await screenshot(page, 'modify-errors', lang);
      await context.close();
    });
  });
}
