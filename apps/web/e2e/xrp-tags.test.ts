import { randomBytes } from 'node:crypto';
import jsQR from 'jsqr';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { encodeAccountID } from 'ripple-address-codec';
import { beforeAll, describe, expect, it } from 'vitest';
import { confirmAction, consoleLogin, newPage, OPERATOR, opsShot } from './ops-kit.ts';
import { screenshot } from './support/browser.ts';
import { waitForPath } from './support/flows.ts';
import { e2eSuite } from './support/suite.ts';
import {
  allowClipboard,
  apiOk,
  createWallet,
  expectQty,
  expectToast,
  type Member,
  operatorToken,
  signedUpMember,
  switchLanguage,
  uiLogin,
  walletOf,
} from './trade-kit.ts';

/**
 * XRP destination tags in the browser (DECISIONS §17): the deposit screen shows the platform account and the
 * member's tag, each with its copy button, under the warning that a deposit without the tag is delayed; an XRP
 * withdrawal takes a tag (range-checked), shows it on the review, and the operator sees it in the queue.
 */
const e2e = e2eSuite({
  WITHDRAW_FEE_XRP: '0.25',
  OPERATOR_LOGIN_ID: OPERATOR.loginId,
  OPERATOR_PASSWORD: OPERATOR.password,
});
let member: Member;
let page: Page;
let op: string;
const OUTSIDE = encodeAccountID(randomBytes(20));

async function openXrp(p: Page, action: 'send' | 'receive') {
  await p.goto('/myinfo');
  await p.getByTestId('tab-wallet').click();
  await p.locator('[data-testid="wallet-item"][data-coin="XRP"]').getByTestId(`wallet-${action}`).click();
}

describe('XRP destination tags (DECISIONS §17)', () => {
  beforeAll(async () => {
    op = await operatorToken(e2e.server);
    member = await signedUpMember(e2e.server);
    const xrp = await createWallet(e2e.server, member.token, 'XRP');
    if (xrp.destinationTag === null) throw new Error('an XRP wallet without a tag');
    await apiOk(e2e.server, 'POST', '/ops/api/v1/deposits', op, {
      coinCode: 'XRP',
      address: xrp.address,
      destinationTag: xrp.destinationTag,
      amount: '100',
      txid: randomBytes(32).toString('hex').toUpperCase(),
    });
    const opened = await e2e.mobilePage();
    page = opened.page;
    await allowClipboard(opened.context, e2e.server.baseUrl);
    await uiLogin(page, member);
    await switchLanguage(page, 'kr');
  });

  it('the deposit screen shows the platform account and the tag, a copy button each, and the warning', async () => {
    const wallet = await walletOf(e2e.server, member.token, 'XRP');
    const tag = String(wallet.destinationTag);
    await openXrp(page, 'receive');
    await waitForPath(page, '/deposit');
    await page.getByTestId('deposit-tag').waitFor();
    expect(await page.getByTestId('deposit-address').textContent()).toBe(wallet.address);
    expect(await page.getByTestId('deposit-tag').textContent()).toBe(tag);
    const warning = page.getByTestId('deposit-tag-warning');
    expect(await warning.textContent()).toContain('주소와 태그를 꼭 함께 입력하세요');
    expect(await warning.textContent()).toContain(`데스티네이션 태그 ${tag}`);
    expect(await warning.textContent()).toContain('늦어져요');
    // The QR code is the address alone (wallets read a bare classic address); the tag is typed or pasted.
    const png = PNG.sync.read(await page.getByTestId('deposit-qr').screenshot());
    expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(wallet.address);

    await page.getByTestId('deposit-copy').click();
    await page.getByTestId('deposit-copy').getByText('복사됐어요!').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(wallet.address);
    await page.getByTestId('deposit-copy-tag').click();
    await page.getByTestId('deposit-copy-tag').getByText('태그가 복사됐어요!').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(tag);
    // Each button confirms its own copy: the address button went back (or goes back) to its label.
    await page.getByTestId('deposit-copy').getByText('주소 복사').waitFor({ timeout: 4000 });

    for (const lang of ['en', 'kr'] as const) {
      await switchLanguage(page, lang);
      await page.getByTestId('deposit-tag').waitFor();
      await page.getByTestId('deposit-qr').waitFor();
      await screenshot(page, 'wallet-xrp-deposit', lang);
    }
    await switchLanguage(page, 'en');
    expect(await page.getByTestId('deposit-tag-warning').textContent()).toContain(
      'A deposit without the tag is not credited automatically',
    );
    await switchLanguage(page, 'kr');
  });

  it('an XRP withdrawal takes a tag in range, shows it on the review, and stores it', async () => {
    await openXrp(page, 'send');
    await waitForPath(page, '/withdraw');
    await page.getByTestId('withdraw-dest-EXTERNAL').click();
    await page.getByTestId('withdraw-address').fill(OUTSIDE);
    await page.getByTestId('withdraw-amount').fill('10');
    const tag = page.getByTestId('withdraw-dest-tag');
    // digits only, 10 at most; above 2^32-1 is refused before anything is sent
    await tag.fill('42949x67296');
    expect(await tag.inputValue()).toBe('4294967296');
    await page.getByText('0 ~ 4294967295 사이의 숫자만 입력할 수 있어요.').waitFor();
    expect(await page.getByTestId('withdraw-submit').isDisabled()).toBe(true);
    await tag.fill('123456');
    await screenshot(page, 'wallet-xrp-withdraw', 'kr');
    // the same form in English, then back to Korean for the rest
    const fill = async () => {
      await page.getByTestId('withdraw-dest-EXTERNAL').click();
      await page.getByTestId('withdraw-address').fill(OUTSIDE);
      await page.getByTestId('withdraw-amount').fill('10');
      await page.getByTestId('withdraw-dest-tag').fill('123456');
    };
    await switchLanguage(page, 'en');
    await fill();
    await screenshot(page, 'wallet-xrp-withdraw', 'en');
    await switchLanguage(page, 'kr');
    await fill();
    await page.getByTestId('withdraw-submit').click();
    const sheet = page.getByTestId('withdraw-review');
    await sheet.waitFor();
    expect(await sheet.getByTestId('review-address').textContent()).toBe(OUTSIDE);
    expect(await sheet.getByTestId('review-dest-tag').textContent()).toContain('123456');
    expect(await sheet.getByTestId('review-fee').textContent()).toBe('0.25 XRP');
    await page.getByTestId('withdraw-password').fill(member.password);
    await page.getByTestId('withdraw-confirm').click();
    await expectToast(page, '출금 신청이 완료됐어요.');
    await waitForPath(page, '/wallet');
    await page
      .locator('[data-testid="transfer-row"][data-status="PENDING"]')
      .getByText('태그 123456')
      .waitFor();
    expectQty((await walletOf(e2e.server, member.token, 'XRP')).balance, '89.75');
    const queue = await apiOk<{ list: { withdrawalId: number; address: string; destTag: number | null }[] }>(
      e2e.server,
      'GET',
      '/ops/api/v1/withdrawals',
      op,
    );
    expect(queue.list).toEqual([expect.objectContaining({ address: OUTSIDE, destTag: 123456 })]);
    await e2e.server.t.assertLedger();
  });

  it("the operator's queue shows the tag, the send confirmation names it; a console deposit takes one", async () => {
    const desk = await newPage(e2e.browser, e2e.server.baseUrl);
    try {
      await consoleLogin(desk.page, OPERATOR);
      await waitForPath(desk.page, '/ops');
      await desk.page.getByTestId('ops-nav-withdrawals').click();
      await waitForPath(desk.page, '/ops/withdrawals');
      const queue = await apiOk<{ list: { withdrawalId: number }[] }>(
        e2e.server,
        'GET',
        '/ops/api/v1/withdrawals',
        op,
      );
      const id = queue.list[0]?.withdrawalId ?? 0;
      await desk.page.getByTestId(`withdrawal-tag-${id}`).getByText('Tag 123456').waitFor();
      await opsShot(desk.page, 'withdrawals-xrp-tag');
      await desk.page.getByTestId(`send-${id}`).click();
      const dialog = desk.page.getByTestId('confirm-dialog');
      await dialog.getByText('Destination tag').waitFor();
      expect(await dialog.textContent()).toContain('123456');
      await confirmAction(desk.page, { txid: randomBytes(32).toString('hex').toUpperCase() });
      const done = await apiOk<{ list: { withdrawalId: number; destTag: number | null }[] }>(
        e2e.server,
        'GET',
        '/ops/api/v1/withdrawals?status=COMPLETED',
        op,
      );
      expect(done.list).toEqual([expect.objectContaining({ withdrawalId: id, destTag: 123456 })]);
      // An operator-driven XRP deposit to the platform account names its wallet by the tag.
      const wallet = await walletOf(e2e.server, member.token, 'XRP');
      await desk.page.getByTestId('ops-nav-deposits').click();
      await waitForPath(desk.page, '/ops/deposits');
      const form = desk.page.getByTestId('deposit-form');
      await form.getByLabel('Coin').selectOption('XRP');
      await form.getByLabel('Deposit address').fill(wallet.address);
      await form.getByLabel('Destination tag (XRP)').fill(String(wallet.destinationTag));
      await form.getByLabel('Amount').fill('5');
      await form.getByLabel('Chain TxID').fill(randomBytes(32).toString('hex').toUpperCase());
      await desk.page.getByTestId('deposit-submit').click();
      const confirmDialog = desk.page.getByTestId('confirm-dialog');
      await confirmDialog.getByText('Destination tag (XRP)').waitFor();
      await opsShot(desk.page, 'deposit-xrp-tag');
      await confirmAction(desk.page);
      await desk.page.getByTestId('deposit-result').waitFor();
      expectQty((await walletOf(e2e.server, member.token, 'XRP')).balance, '94.75');
      expect(desk.errors).toEqual([]);
    } finally {
      await desk.context.close();
    }
  });
});
