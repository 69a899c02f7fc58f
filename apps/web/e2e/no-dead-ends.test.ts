import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newMobilePage, screenshot, VIEWPORT } from './support/browser.ts';
import { type E2EServer, startE2EServer } from './support/server.ts';
import {
  apiOk,
  approvePending,
  createWallet,
  fund,
  type Member,
  operatorToken,
  signedUpMember,
  uiLogin,
} from './trade-kit.ts';

/**
 * No dead ends at the money moments (issue 13): /verify asks for a new code on the same screen when the
 * code's 120 s or the check's 5 minutes pass, and the QR scanner gives up after 10 s without a code and
 * offers a retry. Time is moved with Playwright's clock, never waited for.
 */
let server: E2EServer;
let browser: Browser;
let buyer: Member;

beforeAll(async () => {
  server = await startE2EServer();
  browser = await launchBrowser();
  const op = await operatorToken(server);
  const seller = await signedUpMember(server);
  const wallet = await createWallet(server, seller.token, 'BTC');
  await fund(server, op, 'BTC', wallet.address, '1');
  await apiOk(server, 'POST', '/api/v1/sell-listings', seller.token, {
    walletId: wallet.id,
    minQty: '0.001',
    maxQty: '0.5',
    unitPriceKrw: 10_000_000,
    bankName: '신한은행',
    accountNo: '11012345678',
  });
  await approvePending(server, op);
  buyer = await signedUpMember(server);
  await createWallet(server, buyer.token, 'BTC');
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('no dead ends (issue 13)', () => {
  it('/verify: an expired code and a lapsed 5-minute check both lead to a new code on the same screen', async () => {
    const { context, page, errors } = await newMobilePage(browser, server.baseUrl);
    await page.clock.install();
    await uiLogin(page, buyer);
    await page.evaluate(() => window.localStorage.setItem('language', 'kr'));
    await page.goto('/transaction');
    await page.getByTestId('buy-instant').first().click();
    await page.waitForURL((u) => u.pathname === '/purchase');
    await page.getByTestId('purchase-amount').fill('50,000');
    await page.getByTestId('purchase-submit').click();
    await page.waitForURL((u) => u.pathname === '/verify');

    // The code's 120 s pass: the screen says so and 재전송 gets a new one.
    await page.getByTestId('verify-send').click();
    await page
      .getByTestId('verify-timer')
      .filter({ hasText: /^0[12]:\d\d$/ })
      .waitFor();
    await page.clock.fastForward('02:05');
    await page.getByText('인증 시간이 지났습니다. 재전송을 눌러 새 인증번호를 받아 주세요.').waitFor();
    expect(await page.getByTestId('verify-send').isDisabled()).toBe(false);

    // The check passes but the order call is lost; 5 minutes later the check has lapsed, and the screen
    // asks for a new code instead of failing on every tap.
    await page.getByTestId('verify-send').click();
    await page.getByTestId('verify-code').fill(await server.smsCode(buyer.phoneE164));
    await page.route('**/buy-orders', (r) => r.abort('connectionfailed'));
    await page.getByTestId('verify-submit').click();
    await expect.poll(() => page.getByTestId('verify-send').isDisabled()).toBe(true);
    await page.unroute('**/buy-orders');
    await page.clock.fastForward('05:01');
    await page.getByText('인증 후 5분이 지났습니다. 인증번호를 다시 받아 주세요.').waitFor();
    expect(await page.getByTestId('verify-send').isDisabled()).toBe(false);
    expect(await page.getByTestId('verify-code').inputValue()).toBe('');
    await screenshot(page, 'verify-lapsed', 'kr', { idle: false });

    await page.getByTestId('verify-send').click();
    await page.getByTestId('verify-code').fill(await server.smsCode(buyer.phoneE164));
    await page.getByTestId('verify-submit').click();
    await page.waitForURL((u) => u.pathname === '/request_successfully');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the QR scanner stops after 10 s without a code, says so and offers a retry', async () => {
    // A fake camera that shows no QR code.
    const camBrowser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
      ],
    });
    try {
      const context = await camBrowser.newContext({
        viewport: VIEWPORT,
        baseURL: server.baseUrl,
        locale: 'en-US',
        permissions: ['camera'],
      });
      const page = await context.newPage();
      await page.clock.install();
      await uiLogin(page, buyer);
      await page.goto('/myinfo');
      await page.getByTestId('tab-wallet').click();
      await page.locator('[data-testid="wallet-item"][data-coin="BTC"]').getByTestId('wallet-send').click();
      await page.getByTestId('withdraw-scan').click();
      await page.getByTestId('qr-modal').waitFor();
      expect(await page.getByTestId('qr-retry').count()).toBe(0);
      await expect
        .poll(() => page.locator('video').evaluate((v) => (v as HTMLVideoElement).readyState))
        .toBeGreaterThan(0);
      await page.clock.fastForward('00:11');
      await expect
        .poll(() => page.getByTestId('qr-error').textContent())
        .toBe('No QR code was found in 10 seconds. Hold the code inside the box and try again.');
      await screenshot(page, 'qr-timeout', 'en', { idle: false });
      await page.getByTestId('qr-retry').click();
      await expect.poll(() => page.getByTestId('qr-error').textContent()).toBe('');
      await context.close();
    } finally {
      await camBrowser.close();
    }
  });
});
