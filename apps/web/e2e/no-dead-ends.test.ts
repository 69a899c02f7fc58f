import { chromium } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot, VIEWPORT } from './support/browser.ts';
import { e2eSuite } from './support/suite.ts';
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
 * No dead ends at the money moments: /verify asks for a new code on the same screen when the
 * code's 120 s or the check's 5 minutes pass, and the QR scanner gives up after 10 s without a code and
 * offers a retry. Time is moved with Playwright's clock, never waited for.
 */
const e2e = e2eSuite();
let buyer: Member;

beforeAll(async () => {
  const op = await operatorToken(e2e.server);
  const seller = await signedUpMember(e2e.server);
  const wallet = await createWallet(e2e.server, seller.token, 'BTC');
  await fund(e2e.server, op, 'BTC', wallet.address, '1');
  await apiOk(e2e.server, 'POST', '/api/v1/sell-listings', seller.token, {
    walletId: wallet.id,
    minQty: '0.001',
    maxQty: '0.5',
    unitPriceKrw: 10_000_000,
    bankName: '신한은행',
    accountNo: '11012345678',
    stepUp: { password: seller.password },
  });
  await approvePending(e2e.server, op);
  buyer = await signedUpMember(e2e.server);
  await createWallet(e2e.server, buyer.token, 'BTC');
});

describe('no dead ends', () => {
  it('/verify: an expired code and a lapsed 5-minute check both lead to a new code on the same screen', async () => {
    const { context, page, errors } = await e2e.mobilePage();
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
    await page.getByText('인증 시간이 지났어요. 재전송을 눌러 새 인증번호를 받아 주세요.').waitFor();
    expect(await page.getByTestId('verify-send').isDisabled()).toBe(false);

    // The check passes but the order call is lost; 5 minutes later the check has lapsed, and the screen
    // asks for a new code instead of failing on every tap.
    // A code sent after this tap: reading the outbox before the request lands gave the one it replaced (the
    // check then failed, twice in a row on a loaded run).
    let sentAfter = Date.now();
    await page.getByTestId('verify-send').click();
    await page.getByTestId('verify-code').fill(await e2e.server.smsCode(buyer.phoneE164, sentAfter));
    await page.route('**/buy-orders', (r) => r.abort('connectionfailed'));
    await page.getByTestId('verify-submit').click();
    await expect.poll(() => page.getByTestId('verify-send').isDisabled()).toBe(true);
    await page.unroute('**/buy-orders');
    await page.clock.fastForward('05:01');
    await page.getByText('인증 후 5분이 지났어요. 인증번호를 다시 받아 주세요.').waitFor();
    expect(await page.getByTestId('verify-send').isDisabled()).toBe(false);
    expect(await page.getByTestId('verify-code').inputValue()).toBe('');
    await screenshot(page, 'verify-lapsed', 'kr', { idle: false });

    sentAfter = Date.now();
    await page.getByTestId('verify-send').click();
    await page.getByTestId('verify-code').fill(await e2e.server.smsCode(buyer.phoneE164, sentAfter));
    await page.getByTestId('verify-submit').click();
    await page.waitForURL((u) => u.pathname === '/request_successfully');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the purchase form says what it does: 1만 quick amounts, 만원 readout, the minimum restated, why the button waits', async () => {
    const { context, page, errors } = await e2e.mobilePage();
    await uiLogin(page, buyer);
    await page.evaluate(() => window.localStorage.setItem('language', 'kr'));
    await page.goto('/transaction');
    await page.getByTestId('buy-instant').first().click();
    await page.waitForURL((u) => u.pathname === '/purchase');
    expect(await page.getByTestId('quick-10000').textContent()).toBe('1만');
    expect(await page.getByTestId('purchase-submit').isDisabled()).toBe(true);
    expect(await page.getByTestId('purchase-why').textContent()).toBe('구매 금액을 입력해주세요.');
    // before an amount, the note says the whole range the buyer may order (issue 26 item 10)
    expect(await page.getByTestId('receive-note').textContent()).toBe(
      '10,000원부터 4,950,000원까지 살 수 있어요 (1회 최대 950만원).',
    );

    await page.getByTestId('purchase-amount').fill('5000');
    // said at the amount field, so the line under the button stays empty rather than repeating it
    await page.getByText('최소 구매 금액보다 적어요. 최소 구매 금액은 10,000원이에요.').waitFor();
    expect(await page.getByTestId('purchase-why').textContent()).toBe('');
    expect(await page.getByTestId('purchase-submit').isDisabled()).toBe(true);
    await page.getByTestId('quick-reset').click();
    for (const q of ['1000000', '1000000', '10000']) await page.getByTestId(`quick-${q}`).click();
    expect(await page.getByTestId('purchase-amount').inputValue()).toBe('2,010,000');
    await page.getByText('201만원', { exact: true }).waitFor();
    expect(await page.getByTestId('receive-qty').textContent()).toContain('0.201');
    expect(await page.getByTestId('receive-note').textContent()).toBe(
      '2,010,000원 ÷ 10,000,000원, 소수점 4자리까지 받고 나머지는 버려요.',
    );
    expect(await page.getByTestId('purchase-why').textContent()).toBe('');
    expect(await page.getByTestId('purchase-submit').isDisabled()).toBe(false);
    for (const lang of ['kr', 'en', 'jp'] as const) {
      await page.evaluate((l) => window.localStorage.setItem('language', l), lang);
      await page.reload();
      await page.getByTestId('purchase-amount').fill('2010000');
      await page.getByTestId('receive-note').waitFor();
      await screenshot(page, 'purchase-readout', lang);
    }
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
        baseURL: e2e.server.baseUrl,
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
