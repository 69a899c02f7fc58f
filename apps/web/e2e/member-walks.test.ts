import { maskName, receiveQty } from '@p2p/contract';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/browser.ts';
import { newMember, signupViaApi } from './support/flows.ts';
import type { E2EServer } from './support/server.ts';
import { e2eSuite } from './support/suite.ts';
import {
  apiOk,
  approvePending,
  createWallet,
  fund,
  type Member,
  operatorToken,
  shootNow,
  uiLogin,
  walletOf,
} from './trade-kit.ts';

/**
 * The member walks of a Korean buyer and seller at 390x844, tapping what is visible, against the real API:
 * the release's deposit note (DECISIONS §11), the sell form's overflow and the route error boundary, real
 * names, bank account lengths and mobile phones, order screens that follow the order's state with one
 * masking rule for the seller's name, a dispute's outcome for both parties, the browser's language kept
 * across logout, and a purchase to a personal wallet whose address is checked as it is typed.
 */

const PRICE = 10_000_000;
const SEGWIT = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

/** A member with a Korean real name, signed up over HTTP, with an API token. */
async function koreanMember(s: E2EServer, name: string): Promise<Member> {
  const m = await signupViaApi(s, { ...newMember(), name });
  const { accessToken } = await apiOk<{ accessToken: string }>(s, 'POST', '/api/v1/auth/login', undefined, {
    loginId: m.loginId,
    password: m.password,
  });
  return { ...m, token: accessToken };
}

interface Market {
  seller: Member;
  buyer: Member;
  op: string;
  listingId: number;
}

/** 김민수 sells 0.5 BTC at 10,000,000 won into 신한은행 110-123-456789; 이영희 buys with a BTC wallet. */
async function market(s: E2EServer): Promise<Market> {
  const op = await operatorToken(s);
  const seller = await koreanMember(s, '김민수');
  const buyer = await koreanMember(s, '이영희');
  const w = await createWallet(s, seller.token, 'BTC');
  await fund(s, op, 'BTC', w.address, '1');
  const listing = await apiOk<{ listingId: number; accountNo: string }>(
    s,
    'POST',
    '/api/v1/sell-listings',
    seller.token,
    {
      walletId: w.id,
      minQty: '0.001',
      maxQty: '0.5',
      unitPriceKrw: PRICE,
      bankName: '신한은행',
      accountNo: '110-123-456789',
      stepUp: { password: seller.password },
    },
  );
  // hyphens are typed, digits are kept
  expect(listing.accountNo).toBe('110123456789');
  await approvePending(s, op);
  await createWallet(s, buyer.token, 'BTC');
  return { seller, buyer, op, listingId: listing.listingId };
}

/** An INTERNAL instant order over the API after a fresh purchase check. */
async function orderViaApi(s: E2EServer, m: Market, krw: number): Promise<number> {
  await apiOk(s, 'POST', '/sms/request', m.buyer.token, { phone: m.buyer.phoneE164 });
  await apiOk(s, 'POST', '/sms/verify', m.buyer.token, {
    phone: m.buyer.phoneE164,
    code: await s.smsCode(m.buyer.phoneE164),
  });
  const wallet = await walletOf(s, m.buyer.token, 'BTC');
  const order = await apiOk<{ orderId: number }>(s, 'POST', '/buy-orders', m.buyer.token, {
    listingId: m.listingId,
    krwAmount: krw,
    requestQty: receiveQty(krw, PRICE),
    destType: 'INTERNAL',
    destWalletId: wallet.id,
  });
  return order.orderId;
}

/** A signed-in kr page (ko-KR browser) for `m`. */
async function krPage(e2e: ReturnType<typeof e2eSuite>, m: Member) {
  const p = await e2e.mobilePage({ locale: 'ko-KR' });
  await uiLogin(p.page, m);
  return p;
}

const headerTitle = (p: Page) => p.locator('header h1').textContent();

describe('member walks', () => {
  const e2e = e2eSuite();
  let m: Market;
  beforeAll(async () => {
    m = await market(e2e.server);
  });

  it('a ko-KR browser lands in Korean, a ja-JP one in Japanese; the chosen language stays after logout', async () => {
    const jp = await e2e.mobilePage({ locale: 'ja-JP' });
    await jp.page.goto('/');
    await expect.poll(() => jp.page.evaluate(() => document.documentElement.lang)).toBe('ja');
    await jp.context.close();

    const { context, page, errors } = await e2e.mobilePage({ locale: 'ko-KR' });
    await page.goto('/');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('ko');
    await page.getByTestId('header-login').getByText('로그인').waitFor();
    await screenshot(page, 'home-browser-language', 'kr');
    // the member picks English, signs in and out: English stays
    await page.getByTestId('language-button').click();
    await page.getByTestId('language-en').click();
    await page.getByTestId('header-login').getByText('Log in').waitFor();
    await uiLogin(page, m.buyer);
    await page.getByTestId('header-logout').click();
    await page.getByTestId('header-login').waitFor();
    expect(await page.getByTestId('header-login').textContent()).toBe('Log in');
    await page.reload();
    await page.getByTestId('header-login').getByText('Log in').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('en');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the release asks for a deposit note, prefilled with the buyer name, refusing emoji; the title follows the state', async () => {
    const orderId = await orderViaApi(e2e.server, m, 50_000);
    await apiOk(e2e.server, 'POST', `/buy-orders/${orderId}/paid`, m.buyer.token);
    const { context, page, errors } = await krPage(e2e, m.seller);
    await page.goto(`/view_details?id=${orderId}&type=sell-history`);
    await page.getByTestId('action-complete').click();
    await page.waitForURL((u) => u.pathname === '/proceed');
    const note = page.getByTestId('proceed-txid');
    await note.waitFor();
    expect(await headerTitle(page)).toBe('입금 확인 후 지급');
    expect(await note.inputValue()).toBe('이영희');
    await page.getByText('입금 확인 메모', { exact: true }).waitFor();
    expect(await page.getByTestId('release-form').textContent()).not.toContain('트랜잭션');
    await note.fill('😀😀😀');
    await page.getByText('이모지나 특수 제어 문자는 쓸 수 없어요.', { exact: false }).waitFor();
    await page.getByTestId('release-check-amount').check();
    await page.getByTestId('release-check-name').check();
    await page.getByTestId('proceed-password').fill(m.seller.password);
    expect(await page.getByTestId('proceed-submit').isDisabled()).toBe(true);
    await screenshot(page, 'proceed-deposit-note', 'kr');
    await note.fill('이영희 10:31 신한');
    await page.getByTestId('proceed-submit').click();
    await page.getByTestId('confirm-yes').click();
    await page.waitForURL((u) => u.pathname === '/myinfo');
    // the API refuses the same note, whatever a client sends
    const refused = await e2e.server.t.call<{ fields: Record<string, string> }>(
      'POST',
      `/buy-orders/${orderId}/complete`,
      { token: m.seller.token, body: { txid: '😀😀😀', stepUp: { password: m.seller.password } } },
    );
    expect([refused.status, refused.body.returnData.fields.txid]).toEqual([400, 'INVALID_FORMAT']);
    await context.close();

    const b = await krPage(e2e, m.buyer);
    await b.page.goto(`/view_details?id=${orderId}&type=purchase`);
    await b.page.getByTestId('detail-txid').waitFor();
    expect(await b.page.getByTestId('detail-txid').textContent()).toBe('이영희 10:31 신한');
    await b.page.getByText('판매자 입금 확인 메모').waitFor();
    await screenshot(b.page, 'details-deposit-note', 'kr');
    expect([...errors, ...b.errors]).toEqual([]);
    await b.context.close();
  });

  it('the order screens follow the state: heading while waiting, the paid warning on cancel, one masked name and phone', async () => {
    const { context, page, errors } = await krPage(e2e, m.buyer);
    await page.goto('/transaction');
    await page.getByTestId('buy-instant').first().click();
    await page.waitForURL((u) => u.pathname === '/purchase');
    await page.getByTestId('purchase-amount').fill('30000');
    await page.getByTestId('internal-address').waitFor();
    await page.getByTestId('purchase-submit').click();
    await page.waitForURL((u) => u.pathname === '/verify');
    const sentAt = Date.now();
    await page.getByTestId('verify-send').click();
    await page.getByTestId('verify-code').fill(await e2e.server.smsCode(m.buyer.phoneE164, sentAt));
    await page.getByTestId('verify-submit').click();
    await page.waitForURL((u) => u.pathname === '/request_successfully');
    await page.getByTestId('receipt-next').getByText('아직 끝나지 않았어요', { exact: false }).waitFor();
    expect(await page.getByTestId('receipt-holder').textContent()).toBe('김민수');
    // DECISIONS §10 (item 11): the seller's phone in full only to the buyer of a live order
    const last4 = m.seller.phoneE164.slice(-4);
    const middle = m.seller.phoneE164.slice(-8, -4);
    const livePhone = (await page.getByTestId('receipt-phone').textContent()) ?? '';
    expect(livePhone).toContain(`${middle}-${last4}`);
    await page.getByTestId('action-paid').click();
    await page.getByTestId('confirm-yes').click();
    await expect.poll(() => page.getByTestId('receipt-title').textContent()).toBe('입금을 알렸어요');
    expect(await page.getByTestId('receipt-next').count()).toBe(0);
    await page.getByTestId('action-cancel').click();
    await page
      .getByTestId('cancel-paid-warning')
      .getByText('이미 입금했다면 취소하지 마세요', { exact: false })
      .waitFor();
    await page.waitForTimeout(300);
    await shootNow(page, 'cancel-after-paid');
    await page.getByTestId('confirm-no').click();
    await screenshot(page, 'receipt-paid', 'kr');

    // the order ends (the operator cancels it): every screen masks the seller's name the same way
    const orders = await apiOk<{ list: { orderId: number; status: string }[] }>(
      e2e.server,
      'GET',
      '/my/buy-history',
      m.buyer.token,
    );
    const paid = orders.list.find((o) => o.status === 'PAID')?.orderId ?? 0;
    await apiOk(e2e.server, 'POST', `/ops/api/v1/orders/${paid}/cancel`, m.op, { reason: 'buyer asked' });
    await expect
      .poll(() => page.getByTestId('receipt-title').textContent(), { timeout: 20_000 })
      .toBe('취소된 주문이에요');
    expect(await page.getByTestId('receipt-holder').textContent()).toBe('김*수');
    const endedPhone = (await page.getByTestId('receipt-phone').textContent()) ?? '';
    expect(endedPhone).toMatch(new RegExp(`^\\+82 \\*+${last4}$`));
    expect(endedPhone).not.toContain(middle);
    await page.goto(`/view_details?id=${paid}&type=purchase`);
    await page.getByTestId('detail-holder').waitFor();
    expect(await page.getByTestId('detail-holder').textContent()).toBe('김*수');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a dispute ends with the outcome, the operator reason, the time it took and support, for both parties', async () => {
    const orderId = await orderViaApi(e2e.server, m, 40_000);
    await apiOk(e2e.server, 'POST', `/buy-orders/${orderId}/paid`, m.buyer.token);
    await apiOk(e2e.server, 'POST', `/buy-orders/${orderId}/dispute`, m.seller.token, {
      reason: 'PAYMENT_NOT_RECEIVED',
      statement: '통장에 이영희 이름의 입금이 없습니다.',
    });
    await apiOk(e2e.server, 'POST', `/ops/api/v1/orders/${orderId}/cancel`, m.op, {
      reason: '은행 거래내역에 입금이 확인되지 않음',
    });
    for (const [who, type] of [
      [m.buyer, 'purchase'],
      [m.seller, 'sell-history'],
    ] as const) {
      const { context, page, errors } = await krPage(e2e, who);
      await page.goto(`/view_details?id=${orderId}&type=${type}`);
      const outcome = page.getByTestId('dispute-outcome');
      await outcome.waitFor();
      expect(await outcome.getAttribute('data-outcome')).toBe('CANCELED');
      expect(await page.getByTestId('dispute-outcome-reason').textContent()).toContain(
        '은행 거래내역에 입금이 확인되지 않음',
      );
      expect(await page.getByTestId('dispute-outcome-took').textContent()).toMatch(/분쟁 접수 후 \d+분 만에/);
      await screenshot(page, `dispute-outcome-${type}`, 'kr');
      await page.goto('/notifications');
      const text = page
        .getByTestId('notification')
        .filter({ hasText: `주문 #${orderId}: 분쟁 결과` })
        .first();
      await text.waitFor();
      expect(await text.textContent()).toContain('은행 거래내역에 입금이 확인되지 않음');
      await page.goto(`/view_details?id=${orderId}&type=${type}`);
      await page.getByTestId('dispute-outcome-contact').click();
      await page.waitForURL((u) => u.pathname === '/contact');
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('a personal wallet address is checked as it is typed, before the SMS step, and going back keeps the form', async () => {
    const { context, page, errors } = await krPage(e2e, m.buyer);
    await page.goto('/transaction');
    await page.getByTestId('buy-instant').first().click();
    await page.waitForURL((u) => u.pathname === '/purchase');
    await page.getByTestId('purchase-amount').fill('20000');
    await page.getByTestId('dest-EXTERNAL').click();
    await page.getByTestId('dest-address').fill('0x52908400098527886E0F7030069857D2E4169EE7');
    await page.getByText('BTC 주소 형식이 아니에요.', { exact: false }).first().waitFor();
    expect(await page.getByTestId('purchase-submit').isDisabled()).toBe(true);
    await screenshot(page, 'purchase-address-invalid', 'kr');
    await page.getByTestId('dest-address').fill(SEGWIT);
    await expect.poll(() => page.getByTestId('purchase-submit').isDisabled()).toBe(false);
    await page.getByTestId('purchase-submit').click();
    await page.waitForURL((u) => u.pathname === '/verify');
    await page.goBack();
    await page.waitForURL((u) => u.pathname === '/purchase');
    await page.getByTestId('dest-address').waitFor();
    expect(await page.getByTestId('dest-address').inputValue()).toBe(SEGWIT);
    expect(await page.getByTestId('purchase-amount').inputValue()).toBe('20,000');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the sell form: a total beyond the limit is a message in won, never a crash; the account is prefilled after a reload', async () => {
    const seller = await koreanMember(e2e.server, '박서준');
    await apiOk(e2e.server, 'PUT', '/my', seller.token, {
      nickName: seller.nickname,
      countryCode: '82',
      phoneE164: seller.phoneE164,
      bankName: '카카오뱅크',
      accountNo: '3333-01-2345678',
      currentPassword: seller.password,
    });
    const w = await createWallet(e2e.server, seller.token, 'TRX');
    await fund(e2e.server, m.op, 'TRX', w.address, '100');
    const { context, page, errors } = await krPage(e2e, seller);
    await page.goto('/sell');
    await page.getByTestId('sell-coin-TRX').click();
    await page.getByTestId('sell-wallet-address').waitFor();
    await page.getByTestId('sell-min').fill('1');
    await page.getByTestId('sell-max').fill('100000000');
    await page.getByTestId('sell-price').fill('100000000');
    await page
      .getByText('판매 총액(최대 수량 × 개당 가격)은 10,000,000,000원까지예요.', { exact: false })
      .waitFor();
    await page.getByText('10,000,000,000,000,000원', { exact: false }).first().waitFor();
    await screenshot(page, 'sell-total-limit', 'kr');
    await page.getByTestId('sell-submit').click();
    expect(await page.getByTestId('route-error').count()).toBe(0);
    expect(await page.getByText('Unexpected Application Error').count()).toBe(0);
    // the account of the profile, after a reload too; 12 digits are not a 카카오뱅크 account
    await page.reload();
    await expect.poll(() => page.getByTestId('sell-account').inputValue()).toBe('3333012345678');
    await page.getByTestId('sell-coin-TRX').click();
    await page.getByTestId('sell-wallet-address').waitFor();
    await page.getByTestId('sell-account').fill('12');
    await page.getByTestId('sell-min').fill('1');
    await page.getByTestId('sell-max').fill('10');
    await page.getByTestId('sell-price').fill('200');
    await page.getByTestId('sell-submit').click();
    await page.getByText('선택한 은행의 계좌번호 자릿수와 맞지 않아요.', { exact: false }).first().waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('signup refuses an emoji name and a landline; an account number of the wrong length for the bank', async () => {
    const { context, page, errors } = await e2e.mobilePage({ locale: 'ko-KR' });
    await page.goto('/');
    await page.getByTestId('header-signup').click();
    await page.waitForURL((u) => u.pathname === '/agreement');
    await page.getByTestId('agree-terms').check();
    await page.getByTestId('agree-privacy').check();
    await page.getByTestId('agreement-next').click();
    await page.waitForURL((u) => u.pathname === '/signup');
    await page.getByLabel('이름', { exact: true }).fill('😀🔥');
    await page.getByLabel('이름', { exact: true }).blur();
    await page.getByText('이름은 한글 또는 영문 2-30자로 입력해 주세요', { exact: false }).waitFor();
    await page.getByLabel('휴대폰 번호').fill('021234567');
    await page.getByLabel('휴대폰 번호').blur();
    await page.getByText('휴대폰 번호만 인증할 수 있어요', { exact: false }).first().waitFor();
    await screenshot(page, 'signup-name-phone', 'kr');
    await page.getByLabel('이름', { exact: true }).fill('김 민수');
    await page.getByLabel('휴대폰 번호').fill('01012345678');
    await expect
      .poll(() => page.getByText('휴대폰 번호만 인증할 수 있어요', { exact: false }).count())
      .toBe(0);
    expect(await page.getByText('이름은 한글 또는 영문 2-30자로', { exact: false }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('withdrawals: the network named, the own address refused, 내부 지갑 names the member, the fee before confirming, a sale as 판매', async () => {
    const { context, page, errors } = await krPage(e2e, m.seller);
    const own = await walletOf(e2e.server, m.seller.token, 'BTC');
    const wallet = () => page.locator('[data-testid="wallet-item"][data-coin="BTC"]');
    await page.goto('/myinfo');
    await page.getByTestId('tab-wallet').click();
    await wallet().getByTestId('wallet-receive').click();
    await page.getByTestId('deposit-network').getByText('Bitcoin 네트워크').waitFor();
    await page.goto('/myinfo');
    await page.getByTestId('tab-wallet').click();
    await wallet().getByTestId('wallet-detail').click();
    // the release of the earlier walk left as a sale, not a withdrawal
    await page.locator('[data-testid="transfer-kind"]', { hasText: '판매' }).first().waitFor();
    await screenshot(page, 'wallet-sale-row', 'kr');
    await page.goto('/myinfo');
    await page.getByTestId('tab-wallet').click();
    await wallet().getByTestId('wallet-send').click();
    await page.getByTestId('withdraw-network').getByText('Bitcoin 네트워크').waitFor();
    await page.getByTestId('withdraw-address').fill(own.address);
    await page.getByText('내 입금 주소예요.', { exact: false }).waitFor();
    // 내부 지갑: an address of no member is said at the field before any password; a member's is named,
    // masked as public lists mask names (DECISIONS §10), on the sheet that asks for the password
    await page.getByTestId('withdraw-amount').fill('0.01');
    await page.getByTestId('withdraw-address').fill(SEGWIT);
    await page.getByTestId('withdraw-submit').click();
    await page.getByText('회원의 지갑 주소가 아니에요.', { exact: false }).waitFor();
    expect(await page.getByTestId('withdraw-review').count()).toBe(0);
    const buyerBtc = await walletOf(e2e.server, m.buyer.token, 'BTC');
    await page.getByTestId('withdraw-address').fill(buyerBtc.address);
    await page.getByTestId('withdraw-submit').click();
    const sheet = page.getByTestId('withdraw-review');
    await sheet.waitFor();
    expect(await sheet.getByTestId('review-recipient').textContent()).toBe(maskName(m.buyer.nickname));
    expect(maskName(m.buyer.nickname)).not.toBe(m.buyer.nickname);
    await sheet.getByText('회원에게 보낸 코인은 되돌릴 수 없어요.', { exact: false }).waitFor();
    await screenshot(page, 'withdraw-internal-recipient', 'kr');
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'hidden' });
    await page.getByTestId('withdraw-dest-EXTERNAL').click();
    await page.getByTestId('withdraw-fee').getByText('출금 수수료', { exact: false }).waitFor();
    await page.getByTestId('withdraw-address').fill(SEGWIT);
    await page.getByTestId('withdraw-amount').fill('0.01');
    await screenshot(page, 'withdraw-network-fee', 'kr');
    // the API refuses the own address too
    const r = await e2e.server.t.call('POST', '/transfer/request', {
      token: m.seller.token,
      body: {
        fromWalletId: own.id,
        destType: 'EXTERNAL',
        amount: '0.01',
        destExternalAddress: own.address,
        stepUp: { password: m.seller.password },
      },
    });
    expect(r.body.returnMessage).toBe('SELF_TRANSFER');
    expect(errors).toEqual([]);
    await context.close();
  });
});
