import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eSuite } from './support/suite.ts';
import {
  apiOk,
  approvePending,
  createWallet,
  expectQty,
  expectToast,
  fund,
  type Member,
  operatorToken,
  shootBoth,
  shootNow,
  signedUpMember,
  switchLanguage,
  uiLogin,
  walletOf,
} from './trade-kit.ts';

/**
 * The trade screens (SPEC §2) in a 390x844 browser against the real API on a fresh database: the
 * seller lists (operator approval through the operator API), the buyer buys instantly to the internal
 * wallet and with a reservation to an external address, cancels one order, the seller rejects one and
 * completes one with a TxID, and the buyer's wallet shows the coins.
 */
const e2e = e2eSuite();
let op: string;
let seller: Member;
let buyer: Member;
let outsider: string;
let sellerPage: Page;
let buyerPage: Page;

/** Tomorrow in Seoul, yyyy-MM-dd (the reservation must lie in the future, Korean wall time). */
function seoulTomorrow(): string {
  return new Date(Date.now() + 9 * 3600_000 + 24 * 3600_000).toISOString().slice(0, 10);
}

/** From /transaction to /purchase; screenshots the empty form (a reload clears it) before typing. */
async function buy(page: Page, type: 'instant' | 'reserve', amountKrw: string, shot?: string) {
  await page.goto('/transaction');
  await page.getByTestId(`buy-${type}`).first().click();
  await page.waitForURL((u) => u.pathname === '/purchase');
  if (shot) await shootBoth(page, shot, 'purchase-submit');
  await page.getByTestId('purchase-amount').fill(amountKrw);
}

async function verifyAndOrder(page: Page, m: Member) {
  await page.waitForURL((u) => u.pathname === '/verify');
  await page.getByTestId('verify-send').click();
  await expectToast(page, '인증번호가 발송됐어요.');
  await page.getByTestId('verify-code').fill(await e2e.server.smsCode(m.phoneE164));
  await page.getByTestId('verify-submit').click();
  await page.waitForURL((u) => u.pathname === '/request_successfully');
  await page.getByTestId('receipt-purchase').waitFor();
}

async function openDetail(page: Page, tab: string, type: string, id: number) {
  await page.goto('/myinfo');
  await page.getByTestId(`tab-${tab}`).click();
  await page
    .locator(`[data-testid="history-${type}"][data-id="${id}"] [data-testid="history-detail"]`)
    .click();
  await page.waitForURL((u) => u.pathname === '/view_details');
  await page.getByTestId('detail-card').waitFor();
}

describe('trade in the browser', () => {
  beforeAll(async () => {
    op = await operatorToken(e2e.server);
    seller = await signedUpMember(e2e.server);
    buyer = await signedUpMember(e2e.server);
    const third = await signedUpMember(e2e.server);
    outsider = (await createWallet(e2e.server, third.token, 'BTC')).address;
    sellerPage = (await e2e.mobilePage()).page;
    buyerPage = (await e2e.mobilePage()).page;
    await uiLogin(sellerPage, seller);
    await uiLogin(buyerPage, buyer);
    await switchLanguage(sellerPage, 'kr');
    await switchLanguage(buyerPage, 'kr');
  });

  it('the seller creates a wallet, is funded and lists 0.5 BTC (SPEC §5 rules shown)', async () => {
    const p = sellerPage;
    await p.goto('/myinfo');
    await p.getByTestId('tab-wallet').click();
    await p.getByTestId('to-create-wallet').click();
    await p.waitForURL((u) => u.pathname === '/create_wallet');
    await shootBoth(p, 'create-wallet', 'create-coin-BTC');
    await p.getByTestId('create-coin-BTC').click();
    await p.getByTestId('create-submit').click();
    await expectToast(p, '지갑이 성공적으로 생성됐어요!');
    await p.waitForURL((u) => u.pathname === '/myinfo');
    const wallet = await walletOf(e2e.server, seller.token, 'BTC');
    await fund(e2e.server, op, 'BTC', wallet.address, '1');

    await p.goto('/transaction');
    await p.getByTestId('trade-list-status').getByText('거래 가능한 상품이 없어요.').waitFor();
    await shootBoth(p, 'transaction-empty', 'trade-list');
    await p.getByTestId('to-sell').click();
    await p.waitForURL((u) => u.pathname === '/sell');
    await shootBoth(p, 'sell', 'sell-wallet-address');
    await expect.poll(() => p.getByTestId('sell-wallet-address').textContent()).toBe(wallet.address);
    await p.getByTestId('sell-submit').click();
    await expectToast(p, '모든 필수 항목을 입력해주세요.');
    await p.getByTestId('sell-min').fill('0.6');
    await p.getByTestId('sell-max').fill('0.5');
    await p.getByTestId('sell-price').fill('10000000');
    await expect.poll(() => p.getByTestId('sell-price').inputValue()).toBe('10,000,000');
    await p.getByTestId('sell-bank').selectOption('기타');
    // hyphens as the bank prints them are kept in the field (stored as digits); letters never get in
    await p.getByTestId('sell-account').fill('110-1234-5678 a');
    await expect.poll(() => p.getByTestId('sell-account').inputValue()).toBe('110-1234-5678');
    await p.getByTestId('sell-submit').click();
    await expectToast(p, '은행명을 직접 입력해주세요.');
    await p.getByTestId('sell-custom-bank').fill('신한은행');
    await p.getByTestId('sell-submit').click();
    await expectToast(p, '최소 수량이 최대 수량보다 클 수 없어요.');
    await p.getByTestId('sell-min').fill('0.001');
    await p.getByTestId('sell-max').fill('0.5');
    await p.getByTestId('sell-price').fill('10000000');
    await p.getByTestId('sell-bank').selectOption('신한은행');
    await p.getByTestId('sell-account').fill('11012345678');
    await p.getByTestId('sell-submit').click();
    // DECISIONS §13: the review sheet asks for the password before anything is held in escrow.
    await p.getByTestId('sell-review').waitFor();
    await p.getByTestId('sell-password').fill(seller.password);
    await p.getByTestId('sell-confirm').click();
    await p.waitForURL((u) => u.pathname === '/request_successfully');
    await expect.poll(() => p.getByTestId('receipt-range').textContent()).toBe('0.001 - 0.5 BTC');
    await shootBoth(p, 'receipt-sell', 'receipt-sell');
    const w = await walletOf(e2e.server, seller.token, 'BTC');
    expectQty(w.escrowBalance, '0.5');
    expect(await approvePending(e2e.server, op)).toHaveLength(1);
  });

  it('the buyer buys instantly to the internal wallet (amount rules, receive quantity, /verify)', async () => {
    await createWallet(e2e.server, buyer.token, 'BTC');
    const p = buyerPage;
    await p.goto('/transaction');
    await p.getByTestId('listing-card').first().waitFor();
    expect(await p.getByTestId('total-count').textContent()).toBe('총 1건');
    expect(await p.getByTestId('listing-range').first().textContent()).toBe('0.001 - 0.5 BTC');
    expect(await p.getByTestId('listing-price').first().textContent()).toBe('10,000,000원');
    await shootBoth(p, 'transaction', 'listing-card');

    await buy(p, 'instant', '9600000', 'purchase-instant');
    await p.getByText('1회 최대 구매 금액은 950만원까지예요.').first().waitFor();
    expect(await p.getByTestId('purchase-submit').isDisabled()).toBe(true);
    await p.getByTestId('quick-reset').click();
    await p.getByTestId('purchase-amount').fill('5000');
    await p.getByText('최소 구매 금액보다 적어요.').first().waitFor();
    await p.getByTestId('quick-reset').click();
    await p.getByTestId('quick-10000').click();
    await p.getByTestId('quick-50000').click();
    expect(await p.getByTestId('purchase-amount').inputValue()).toBe('60,000');
    expect(await p.getByTestId('receive-qty').textContent()).toContain('0.006');
    await p.getByTestId('quick-reset').click();
    await p.getByTestId('purchase-amount').fill('50,000');
    expect(await p.getByTestId('receive-qty').textContent()).toContain('0.005');
    expect(await p.getByTestId('seller-nationality').textContent()).toBe('한국');
    await p.getByTestId('internal-address').waitFor();
    await shootNow(p, 'purchase-filled');
    await p.getByTestId('purchase-submit').click();
    await p.waitForURL((u) => u.pathname === '/verify');
    await shootBoth(p, 'verify', 'verify-send');
    await verifyAndOrder(p, buyer);
    expect(await p.getByTestId('receipt-qty').textContent()).toBe('0.005 BTC');
    expect(await p.getByTestId('receipt-account').textContent()).toBe('11012345678');
    await shootBoth(p, 'receipt-purchase', 'receipt-purchase');
    await p.getByTestId('receipt-confirm').click();
    await p.waitForURL((u) => u.pathname === '/transaction');
  });

  it('the buyer reserves a purchase to an external address, and a third order to cancel', async () => {
    const p = buyerPage;
    await buy(p, 'reserve', '20000', 'purchase-reserve');
    await p.getByTestId('dest-EXTERNAL').click();
    expect(await p.getByTestId('purchase-submit').isDisabled()).toBe(true);
    await p.getByTestId('open-scanner').click();
    await p.getByTestId('qr-modal').waitFor();
    await p
      .getByTestId('qr-error')
      .getByText(/카메라/)
      .waitFor();
    await p.waitForTimeout(400);
    await shootNow(p, 'qr-scanner');
    expect(await p.evaluate(() => document.body.classList.contains('scroll-locked'))).toBe(true);
    await p.getByTestId('qr-back').click();
    await p.getByTestId('qr-modal').waitFor({ state: 'detached' });
    expect(await p.evaluate(() => document.body.classList.contains('scroll-locked'))).toBe(false);
    await p.getByTestId('dest-address').fill(outsider);
    await p.getByTestId('reserve-date').fill(seoulTomorrow());
    await p.getByTestId('reserve-fine').check();
    await p.getByTestId('reserve-time').selectOption('10:15');
    await shootNow(p, 'purchase-reserve-filled');
    await p.getByTestId('purchase-submit').click();
    await verifyAndOrder(p, buyer);
    expect(await p.getByTestId('receipt-reserved').textContent()).toContain(`${seoulTomorrow()} 10:15`);
    await shootBoth(p, 'receipt-reserve', 'receipt-purchase');

    await buy(p, 'instant', '10000');
    await p.getByTestId('purchase-submit').click();
    await verifyAndOrder(p, buyer);
  });

  it('the buyer cancels one order; the seller rejects one and completes one with a TxID', async () => {
    const orders = await apiOk<{ list: { orderId: number; requestKrwAmount: number }[] }>(
      e2e.server,
      'GET',
      '/my/buy-history',
      buyer.token,
    );
    const byAmount = (krw: number) => orders.list.find((o) => o.requestKrwAmount === krw)?.orderId ?? 0;
    const [instant, reserved, toCancel] = [byAmount(50_000), byAmount(20_000), byAmount(10_000)];

    const b = buyerPage;
    await b.goto('/myinfo');
    await b.getByTestId('tab-purchase').click();
    await b.getByTestId('history-purchase').nth(2).waitFor();
    await shootBoth(b, 'myinfo-purchases', 'history-purchase');
    await openDetail(b, 'purchase', 'purchase', toCancel);
    await shootBoth(b, 'details-purchase', 'action-cancel');
    await b.getByTestId('action-cancel').click();
    await b.getByTestId('cancel-dialog').getByText(`주문 #${toCancel} · 10,000원`).waitFor();
    await b.getByText('거래를 취소할까요?').waitFor();
    await b.waitForTimeout(300);
    await shootNow(b, 'confirm-cancel');
    await b.getByTestId('confirm-yes').click();
    await expectToast(b, '구매신청이 취소됐어요.');
    await b.waitForURL((u) => u.pathname === '/myinfo');

    const s = sellerPage;
    await s.goto('/myinfo');
    await s.getByTestId('tab-sellHistory').click();
    await s.getByTestId('history-sell-history').first().waitFor();
    await shootBoth(s, 'myinfo-sell-history', 'history-sell-history');
    await openDetail(s, 'sellHistory', 'sell-history', toCancel);
    await s.getByTestId('status-badge').waitFor();
    // the seller's list in seller words
    expect(await s.getByTestId('status-badge').textContent()).toBe('구매자 취소');
    expect(await s.getByTestId('order-actions').count()).toBe(0);
    await openDetail(s, 'sellHistory', 'sell-history', reserved);
    await shootBoth(s, 'details-sell-history', 'action-complete');
    await s.getByTestId('action-reject').click();
    await s.getByTestId('cancel-dialog').waitFor();
    await s.getByTestId('confirm-yes').click();
    await expectToast(s, '판매내역이 취소됐어요.');
    await s.waitForURL((u) => u.pathname === '/myinfo');

    await openDetail(s, 'sellHistory', 'sell-history', instant);
    await s.getByTestId('action-complete').click();
    await s.waitForURL((u) => u.pathname === '/proceed');
    await s.getByTestId('release-form').waitFor();
    expect(await s.getByTestId('proceed-submit').isDisabled()).toBe(true);
    // the seller confirms what they checked in their bank account (DECISIONS §11)
    expect(await s.getByTestId('release-form').textContent()).toContain(buyer.name);
    await s.getByTestId('proceed-txid').fill('   ');
    await s.getByTestId('proceed-txid').blur();
    await s.getByText('입금 확인 메모를 입력해 주세요.').waitFor();
    expect(await s.getByTestId('proceed-submit').isDisabled()).toBe(true);
    await shootBoth(s, 'proceed', 'proceed-txid');
    await s.getByTestId('release-check-amount').check();
    await s.getByTestId('release-check-name').check();
    await s.getByTestId('proceed-txid').fill('  0xe2etxid123  ');
    // Releasing escrow needs the seller's password (DECISIONS §13): a wrong one is refused, nothing moves.
    expect(await s.getByTestId('proceed-submit').isDisabled()).toBe(true);
    await s.getByTestId('proceed-password').fill('wrong-pass1');
    await s.getByTestId('proceed-submit').click();
    await s.getByTestId('release-sheet').getByText('되돌릴 수 없어요.').waitFor();
    await s.getByTestId('confirm-yes').click();
    await s
      .getByTestId('proceed-password')
      .locator('xpath=../..')
      .getByText('비밀번호가 올바르지 않아요.')
      .waitFor();
    expect(s.url()).toContain('/proceed');
    await s.getByTestId('proceed-password').fill(seller.password);
    await s.getByTestId('proceed-submit').click();
    await s.getByTestId('confirm-yes').click();
    await expectToast(s, '거래가 완료됐어요.');
    await s.waitForURL((u) => u.pathname === '/myinfo');
    await openDetail(s, 'sellHistory', 'sell-history', instant);
    expect(await s.getByTestId('detail-txid').textContent()).toBe('0xe2etxid123');
    expect(await s.getByTestId('status-badge').textContent()).toBe('판매 완료');

    await s.goto('/myinfo');
    await s.getByTestId('tab-sellRegister').click();
    await s.getByTestId('history-sell-register').first().waitFor();
    await shootBoth(s, 'myinfo-sell-register', 'history-sell-register');
    await s.getByTestId('history-detail').first().click();
    await s.getByTestId('detail-card').waitFor();
    await shootBoth(s, 'details-sell-register', 'detail-cancel');

    const statuses = await apiOk<{ list: { orderId: number; status: string }[] }>(
      e2e.server,
      'GET',
      '/my/buy-history',
      buyer.token,
    );
    const status = Object.fromEntries(statuses.list.map((o) => [o.orderId, o.status]));
    expect(status).toEqual({ [instant]: 'COMPLETED', [reserved]: 'REJECTED', [toCancel]: 'CANCELED' });
  });

  it("the buyer's wallet shows the coins", async () => {
    const b = buyerPage;
    await b.goto('/myinfo');
    await b.getByTestId('tab-wallet').click();
    await expect.poll(() => b.getByTestId('wallet-item-balance').first().textContent()).toBe('0.0050 BTC');
    await shootBoth(b, 'myinfo-wallets', 'wallet-item');
    expectQty((await walletOf(e2e.server, buyer.token, 'BTC')).balance, '0.005');
    await e2e.server.t.assertLedger();
  });

  it('the seller cancels the listing from sell registrations (close); the rest returns to the wallet', async () => {
    const s = sellerPage;
    await s.goto('/myinfo');
    await s.getByTestId('tab-sellRegister').click();
    await s.getByTestId('history-detail').first().click();
    await s.getByTestId('detail-cancel').click();
    await s.getByTestId('confirm-modal').getByText('거래를 취소할까요?').waitFor();
    await s.getByTestId('confirm-yes').click();
    await expectToast(s, '판매등록이 취소됐어요.');
    await s.waitForURL((u) => u.pathname === '/myinfo');
    await s.getByTestId('tab-sellRegister').click();
    await expect
      .poll(() => s.getByTestId('history-sell-register').first().getAttribute('data-status'))
      .toBe('CLOSED');
    expect(await s.getByTestId('status-badge').first().textContent()).toBe('판매종료');
    const w = await walletOf(e2e.server, seller.token, 'BTC');
    expectQty(w.escrowBalance, '0');
    expectQty(w.balance, '0.995');
    await e2e.server.t.assertLedger();
  });

  it('screens without their navigation state go where SPEC §2 says', async () => {
    const p = buyerPage;
    await p.goto('/verify');
    await expectToast(p, '잘못된 접근이에요.');
    await p.waitForURL((u) => u.pathname === '/transaction');
    await p.goto('/purchase');
    await p.waitForURL((u) => u.pathname === '/transaction');
    await p.goto('/request_successfully');
    await p.waitForURL((u) => u.pathname === '/');
    await p.goto('/proceed');
    await expectToast(p, '주문 정보가 없어요.');
    await p.waitForURL((u) => u.pathname === '/myinfo');
    await p.goto('/view_details?id=999999&type=purchase');
    await p.waitForURL((u) => u.pathname === '/myinfo');
  });
});
