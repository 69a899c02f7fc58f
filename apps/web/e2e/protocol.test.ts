import { join } from 'node:path';
import { receiveQty } from '@p2p/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { confirmAction, consoleLogin, DESK, opsShot } from './ops-kit.ts';
import { SCREENSHOT_DIR, screenshot } from './support/browser.ts';
import type { E2EServer } from './support/server.ts';
import { e2eSuite } from './support/suite.ts';
import {
  allowClipboard,
  apiOk,
  approvePending,
  createWallet,
  expectQty,
  fund,
  type Member,
  operatorToken,
  shootBoth,
  signedUpMember,
  switchLanguage,
  uiLogin,
  walletOf,
} from './trade-kit.ts';

/**
 * The trade protocol of DECISIONS §11 in a 390x844 browser against the real API: the buyer's request with
 * the payment instruction (copy buttons, countdown, step tracker) and 입금했어요; the seller's badge, the
 * depositor check and the deliberate release with the password; a dispute opened by the seller, answered
 * by the buyer and settled in the operator console; and, on a server with a 8-second payment window, an
 * order that expires on screen, after which the refusal PURCHASE_BLOCKED names its time.
 */

const OPERATOR = { loginId: 'protocolop', password: 'protoOps123!' };
const PRICE = 10_000_000;

interface Market {
  seller: Member;
  buyer: Member;
  op: string;
}

/** A seller with 0.5 BTC listed at 10,000,000 won (신한은행 11012345678, approved) and a buyer with a wallet. */
async function market(server: E2EServer): Promise<Market> {
  const op = await operatorToken(server);
  const seller = await signedUpMember(server);
  const buyer = await signedUpMember(server);
  const w = await createWallet(server, seller.token, 'BTC');
  await fund(server, op, 'BTC', w.address, '1');
  await apiOk(server, 'POST', '/api/v1/sell-listings', seller.token, {
    walletId: w.id,
    minQty: '0.001',
    maxQty: '0.5',
    unitPriceKrw: PRICE,
    bankName: '신한은행',
    accountNo: '11012345678',
    stepUp: { password: seller.password },
  });
  await approvePending(server, op);
  await createWallet(server, buyer.token, 'BTC');
  return { seller, buyer, op };
}

/** An INTERNAL instant order over the API after a fresh purchase check (each check allows one order). */
async function orderViaApi(server: E2EServer, buyer: Member, krw: number): Promise<number> {
  await apiOk(server, 'POST', '/sms/request', buyer.token, { phone: buyer.phoneE164 });
  await apiOk(server, 'POST', '/sms/verify', buyer.token, {
    phone: buyer.phoneE164,
    code: await server.smsCode(buyer.phoneE164),
  });
  const listings = await apiOk<{ list: { listingId: number }[] }>(server, 'GET', '/api/v1/sell-listings');
  const wallet = await walletOf(server, buyer.token, 'BTC');
  const order = await apiOk<{ orderId: number }>(server, 'POST', '/buy-orders', buyer.token, {
    listingId: listings.list[0]?.listingId,
    krwAmount: krw,
    requestQty: receiveQty(krw, PRICE),
    destType: 'INTERNAL',
    destWalletId: wallet.id,
  });
  return order.orderId;
}

/** From /transaction through /purchase and /verify to the receipt of a new instant order of `krw` won. */
async function buyThroughUi(server: E2EServer, p: Page, m: Member, krw: string) {
  await p.goto('/transaction');
  await p.getByTestId('buy-instant').first().click();
  await p.waitForURL((u) => u.pathname === '/purchase');
  await p.getByTestId('purchase-amount').fill(krw);
  await p.getByTestId('internal-address').waitFor();
  await p.getByTestId('purchase-submit').click();
  await p.waitForURL((u) => u.pathname === '/verify');
  await p.getByTestId('verify-send').click();
  await seeToast(p, '인증번호가 발송됐어요.');
  await p.getByTestId('verify-code').fill(await server.smsCode(m.phoneE164));
  await p.getByTestId('verify-submit').click();
}

async function openOrder(p: Page, id: number, type: 'purchase' | 'sell-history') {
  await p.goto(`/view_details?id=${id}&type=${type}`);
  await p.getByTestId('status-panel').waitFor();
}

/**
 * Waits for a toast with `text` (visible is enough: it closes by itself, and a click on a button under it
 * waits until it has).
 */
async function seeToast(p: Page, text: string): Promise<void> {
  await p.locator('.Toastify__toast').filter({ hasText: text }).first().waitFor();
}

const statusOf = (p: Page) => p.getByTestId('status-panel').getAttribute('data-status');

describe('the trade protocol in the browser', () => {
  const e2e = e2eSuite({
    OPERATOR_LOGIN_ID: OPERATOR.loginId,
    OPERATOR_PASSWORD: OPERATOR.password,
  });
  let m: Market;
  let buyerCtx: BrowserContext;
  let buyerPage: Page;
  let sellerPage: Page;
  let orderId = 0;

  beforeAll(async () => {
    m = await market(e2e.server);
    const b = await e2e.mobilePage();
    buyerCtx = b.context;
    buyerPage = b.page;
    await allowClipboard(buyerCtx, e2e.server.baseUrl);
    sellerPage = (await e2e.mobilePage()).page;
    await uiLogin(buyerPage, m.buyer);
    await uiLogin(sellerPage, m.seller);
    await switchLanguage(buyerPage, 'kr');
    await switchLanguage(sellerPage, 'kr');
  });

  it('the request leads with the instruction: whom, which account, how much, by when; copy and countdown', async () => {
    const p = buyerPage;
    await p.goto('/transaction');
    // a seller with fewer than 5 ended orders is new (DECISIONS §11 sellerStats)
    expect(await p.getByTestId('seller-stats').first().textContent()).toContain('신규 판매자');
    await shootBoth(p, 'protocol-list', 'seller-stats');
    await buyThroughUi(e2e.server, p, m.buyer, '50000');
    await p.waitForURL((u) => u.pathname === '/request_successfully');
    expect(await p.getByTestId('receipt-title').textContent()).toBe('구매를 신청했어요');
    expect(await p.getByText('구매 신청이 완료됐어요').count()).toBe(0);
    const sentence = await p.getByTestId('pay-sentence').textContent();
    expect(sentence).toMatch(
      new RegExp(
        `^${m.seller.name}님 신한은행 11012345678로 50,000원을 \\d{1,2}월 \\d{1,2}일 \\([월화수목금토일]\\) \\d{2}:\\d{2}까지 보내주세요$`,
      ),
    );
    const first = await p.getByTestId('pay-countdown').textContent();
    expect(first).toMatch(/^(29|30):\d{2}$/);
    await expect.poll(() => p.getByTestId('pay-countdown').textContent(), { timeout: 5000 }).not.toBe(first);
    expect(await p.getByTestId('step-tracker').getAttribute('data-step')).toBe('1');
    expect(await p.getByTestId('pay-instruction').textContent()).toContain(m.buyer.name);

    await p.getByTestId('copy-account').click();
    await seeToast(p, '계좌번호를 복사했어요.');
    expect(await p.evaluate(() => navigator.clipboard.readText())).toBe('11012345678');
    await p.getByTestId('copy-amount').click();
    await seeToast(p, '금액을 복사했어요.');
    expect(await p.evaluate(() => navigator.clipboard.readText())).toBe('50000');
    const box = await p.getByTestId('copy-amount').boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
    await shootBoth(p, 'protocol-receipt', 'pay-instruction');

    const orders = await apiOk<{ list: { orderId: number }[] }>(
      e2e.server,
      'GET',
      '/my/buy-history',
      m.buyer.token,
    );
    orderId = orders.list[0]?.orderId ?? 0;
    expect(orderId).toBeGreaterThan(0);
  });

  it('the seller sees a badge of orders waiting for them', async () => {
    const s = sellerPage;
    await s.goto('/');
    await expect.poll(() => s.getByTestId('header-waiting').textContent()).toContain('1');
    await s.goto('/myinfo');
    await expect.poll(() => s.getByTestId('tab-badge-sellHistory').textContent()).toContain('1');
    await s.getByTestId('tab-sellHistory').click();
    await s.getByTestId('seller-waiting').waitFor();
  });

  it('입금했어요 asks first, then the order is PAID; cancelling now warns not to cancel after paying', async () => {
    const p = buyerPage;
    await openOrder(p, orderId, 'purchase');
    expect(await statusOf(p)).toBe('REQUESTED');
    await p.getByTestId('action-paid').click();
    const dialog = p.getByTestId('paid-dialog');
    expect(await dialog.textContent()).toContain(`${m.seller.name}님에게 50,000원을 보냈나요?`);
    await p.getByTestId('confirm-no').click();
    await dialog.waitFor({ state: 'detached' });
    expect(await statusOf(p)).toBe('REQUESTED');
    await p.getByTestId('action-paid').click();
    await p.getByTestId('confirm-yes').click();
    await seeToast(p, '판매자에게 입금을 알렸어요.');
    await expect.poll(() => statusOf(p)).toBe('PAID');
    expect(await p.getByTestId('step-tracker').getAttribute('data-step')).toBe('2');
    expect(await p.getByTestId('pay-instruction').count()).toBe(0);
    // the buyer's dispute waits ORDER_DISPUTE_AFTER_SEC: the screen says from when
    await p.getByTestId('dispute-later').waitFor();
    expect(await p.getByTestId('action-dispute').count()).toBe(0);
    await shootBoth(p, 'protocol-order-paid', 'status-panel');

    await p.getByTestId('action-cancel').click();
    await p.getByTestId('cancel-paid-warning').getByText('이미 입금했다면 취소하지 마세요').waitFor();
    expect(await p.getByTestId('cancel-dialog').textContent()).toContain(`주문 #${orderId} · 50,000원`);
    await p.getByTestId('confirm-no').click();
    await p.getByTestId('cancel-dialog').waitFor({ state: 'detached' });
    expect(await statusOf(p)).toBe('PAID');
  });

  it('the seller checks the depositor and the amount, then releases deliberately with the password', async () => {
    const s = sellerPage;
    await openOrder(s, orderId, 'sell-history');
    expect(await statusOf(s)).toBe('PAID');
    expect(await s.getByTestId('check-depositor').textContent()).toBe(m.buyer.name);
    expect(await s.getByTestId('check-amount').textContent()).toBe('50,000원');
    // once the buyer said PAID the seller can no longer reject (the transition table)
    expect(await s.getByTestId('action-reject').count()).toBe(0);
    await s.getByTestId('action-dispute').waitFor();
    await s.getByTestId('action-complete').click();
    await s.waitForURL((u) => u.pathname === '/proceed');

    const fill = async (password: string) => {
      await s.getByTestId('release-form').waitFor();
      await s.getByTestId('proceed-txid').fill('0xprotocol0001');
      await s.getByTestId('proceed-password').fill(password);
      expect(await s.getByTestId('proceed-submit').isDisabled()).toBe(true);
      await s.getByTestId('release-check-amount').check();
      expect(await s.getByTestId('proceed-submit').isDisabled()).toBe(true);
      await s.getByTestId('release-check-name').check();
    };
    for (const lang of ['en', 'kr'] as const) {
      await switchLanguage(s, lang);
      await fill(m.seller.password);
      await screenshot(s, 'trade-protocol-release-form', lang);
      await s.getByTestId('proceed-submit').click();
      await s.getByTestId('release-sheet').waitFor();
      await s.waitForTimeout(350);
      // the sheet over the form as the seller sees it (the viewport, not the whole page)
      await s.screenshot({ path: join(SCREENSHOT_DIR, `${lang}-trade-protocol-release.png`) });
    }
    expect(await s.getByTestId('release-sheet').textContent()).toContain('되돌릴 수 없어요');
    expect(await s.getByTestId('release-form').textContent()).toContain(m.buyer.name);
    await s.getByTestId('confirm-yes').click();
    await seeToast(s, '거래가 완료됐어요.');
    await s.waitForURL((u) => u.pathname === '/myinfo');

    await openOrder(buyerPage, orderId, 'purchase');
    expect(await statusOf(buyerPage)).toBe('COMPLETED');
    expect(await buyerPage.getByTestId('step-tracker').getAttribute('data-step')).toBe('4');
    expectQty((await walletOf(e2e.server, m.buyer.token, 'BTC')).balance, '0.005');
    await e2e.server.t.assertLedger();
  });

  it('a dispute: the seller opens it, the buyer answers, an operator returns the coins to the seller', async () => {
    const id = await orderViaApi(e2e.server, m.buyer, 100_000);
    await apiOk(e2e.server, 'POST', `/buy-orders/${id}/paid`, m.buyer.token);
    const s = sellerPage;
    await openOrder(s, id, 'sell-history');
    await s.getByTestId('action-dispute').click();
    await s.getByTestId('dispute-reason').selectOption('PAYMENT_NOT_RECEIVED');
    await s.getByTestId('dispute-statement').fill('too short');
    await s.getByTestId('confirm-yes').click();
    await s.getByTestId('dispute-sheet').getByText('10자 이상 적어 주세요.').waitFor();
    const sellerSays = 'No deposit of 100,000 won from this name arrived in my account by 15:00.';
    await s.getByTestId('dispute-statement').fill(sellerSays);
    await s.getByTestId('confirm-yes').click();
    await seeToast(s, '분쟁을 신청했어요. 운영자가 확인해요.');
    await expect.poll(() => statusOf(s)).toBe('DISPUTED');
    expect(await s.getByTestId('order-actions').count()).toBe(0);

    const b = buyerPage;
    await openOrder(b, id, 'purchase');
    await b.getByTestId('dispute-record').getByText(sellerSays).waitFor();
    await b.getByTestId('action-statement').click();
    const buyerSays = 'I sent 100,000 won from my own account; the bank shows it completed.';
    await b.getByTestId('dispute-statement').fill(buyerSays);
    await b.getByTestId('confirm-yes').click();
    await seeToast(b, '입장을 보냈어요.');
    await b.getByTestId('dispute-record').getByText(buyerSays).waitFor();
    expect(await b.getByTestId('action-statement').count()).toBe(0);

    const { page: ops } = await (async () => {
      const context = await e2e.browser.newContext({
        viewport: DESK,
        baseURL: e2e.server.baseUrl,
        locale: 'en-US',
      });
      return { page: await context.newPage() };
    })();
    await consoleLogin(ops, OPERATOR);
    await ops.getByTestId('ops-nav-disputes').click();
    await ops.getByTestId(`dispute-row-${id}`).waitFor();
    await opsShot(ops, 'disputes-queue');
    await ops.getByTestId(`dispute-open-${id}`).click();
    await ops.getByTestId('dispute-detail').waitFor();
    expect(await ops.getByTestId('st-seller').textContent()).toContain(sellerSays);
    expect(await ops.getByTestId('st-buyer').textContent()).toContain(buyerSays);
    expect(await ops.getByTestId('party-seller').textContent()).toContain('신한은행 11012345678');
    expect(await ops.getByTestId('party-buyer').textContent()).toContain(m.buyer.name);
    expect(await ops.getByTestId('dispute-timeline').textContent()).toContain('Dispute opened');
    for (const lang of ['kr', 'en'] as const) {
      await ops.evaluate((l) => window.localStorage.setItem('language', l), lang);
      await ops.reload();
      await ops.getByTestId('dispute-detail').waitFor();
      await opsShot(ops, `dispute-detail-${lang}`);
    }
    await ops.getByTestId('dispute-return').click();
    await confirmAction(ops, {
      reason: 'No deposit on the seller statement; buyer could not show a receipt.',
    });
    await ops.locator('[data-testid="dispute-detail"][data-status="CANCELED"]').waitFor();
    await ops.getByTestId('dispute-outcome').waitFor();

    await openOrder(b, id, 'purchase');
    expect(await statusOf(b)).toBe('CANCELED');
    const audit = await apiOk<{ list: { action: string }[] }>(
      e2e.server,
      'GET',
      '/ops/api/v1/audit-log',
      m.op,
    );
    expect(audit.list.map((a) => a.action)).toContain('order.cancel');
    await e2e.server.t.assertLedger();
  });
});

describe('an order that expires on screen (short ORDER_PAYMENT_WINDOW_SEC)', () => {
  const e2e = e2eSuite({ ORDER_PAYMENT_WINDOW_SEC: '8', BUYER_CANCELS_PER_DAY: '1' });

  beforeAll(async () => {
    // 8 s to pay; one expiry a day blocks further purchases, so the refusal can be shown right after
  });

  it('the countdown runs out, the order shows as expired; the next purchase is refused with its time', async () => {
    const m = await market(e2e.server);
    const id = await orderViaApi(e2e.server, m.buyer, 50_000);
    const { page: p } = await e2e.mobilePage();
    await uiLogin(p, m.buyer);
    await switchLanguage(p, 'kr');
    await openOrder(p, id, 'purchase');
    await p.getByTestId('pay-countdown').waitFor();
    await p.locator('[data-testid="status-panel"][data-status="EXPIRED"]').waitFor({ timeout: 30_000 });
    expect(await p.getByTestId('status-help').textContent()).toBe('입금 기한이 지나 자동으로 취소되었어요.');
    expect(await p.getByTestId('pay-instruction').count()).toBe(0);
    expect(await p.getByTestId('order-actions').count()).toBe(0);
    expect(await p.getByTestId('step-tracker').count()).toBe(0);
    await shootBoth(p, 'protocol-expired', 'status-panel');

    await buyThroughUi(e2e.server, p, m.buyer, '50000');
    const toast = p.locator('.Toastify__toast').filter({ hasText: '까지 구매할 수 없어요' }).first();
    await toast.waitFor();
    expect(await toast.textContent()).toMatch(
      /\d{1,2}월 \d{1,2}일 \([월화수목금토일]\) \d{2}:\d{2}까지 구매할 수 없어요/,
    );
    expect(p.url()).toContain('/verify');
    await e2e.server.t.assertLedger();
  });
});
