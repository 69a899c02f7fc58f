import { randomInt } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { PRODUCTION_TRUST } from '../../api/test/helpers.ts';
import { screenshot } from './support/browser.ts';
import { type NewMember, newMember, signupViaApi, waitForPath } from './support/flows.ts';
import { e2eSuite } from './support/suite.ts';
import {
  apiOk,
  approvePending,
  fund,
  type Member,
  operatorToken,
  switchLanguage,
  uiLogin,
} from './trade-kit.ts';

/**
 * Issue 25's "Done when", walked as new users would in a 390x844 browser (kr) on the real API with the §19
 * knobs as production sets them (KYC_TRADE_LEVEL=1, the 1원 check, 24 h / 72 h holds, the Travel Rule from
 * 1,000,000 won). The seller signs up through the signup form, reaches level 1 in the 인증 센터, verifies a bank
 * account with the 1원 code and lists ETH through the sell form (paid into that account); a second member (set
 * up over the API) sees the outside address disabled on the purchase screen (bought coins are held), buys
 * into their wallet and pays; the seller's order shows the buyer's verified name as the depositor and the
 * release asks to confirm it; the buyer's bought coins are held (the time on the screen and in the refusal);
 * the seller withdraws 1,500,000 won worth outside after the beneficiary step; a member with nothing closes.
 * Only the operator's part (crediting the deposit, approving the listing) and the buyer's setup use the API.
 * ETH at the fake upstream's 5,012,345.5 won: 0.3 ETH = 1,503,703 won (Travel Rule).
 */
const e2e = e2eSuite({ ...PRODUCTION_TRUST, KYC_TRADE_LEVEL: '1' });

const BANK = '신한은행';
const ACCOUNT = `110${randomInt(10_000_000, 99_999_999)}`;
const OUTSIDE = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const SELLER_NAME = '이지원';
const BUYER_NAME = '박서연';

let op: string;
let seller: Page;
let buyer: Page;
const s: NewMember = { ...newMember(), name: SELLER_NAME };
let b: Member;
let orderPath = '';

/** Screenshots the screen in en then kr as kycwalk-<name>, waiting for `ready`; leaves it in kr. */
async function shoot(p: Page, name: string, ready: string) {
  for (const lang of ['en', 'kr'] as const) {
    await switchLanguage(p, lang);
    await p.getByTestId(ready).first().waitFor();
    await p.waitForTimeout(350);
    await screenshot(p, `kycwalk-${name}`, lang, { idle: false });
  }
}

/** The newest 1 KRW deposit's code for `accountNo` (GET /dev/bank/outbox, console bank provider). */
async function bankCode(accountNo: string): Promise<string> {
  for (let waited = 0; ; waited += 100) {
    const r = await e2e.server.t.call<{ code: string }>('GET', `/dev/bank/outbox?accountNo=${accountNo}`);
    if (r.status === 200) return r.body.returnData.code;
    if (waited > 10_000) throw new Error(`no 1 KRW deposit for ${accountNo}: ${JSON.stringify(r.body)}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** / -> /agreement -> /signup -> /complete in Korean, the phone code from the console SMS outbox. */
async function signupInKorean(p: Page, m: NewMember) {
  await p.goto('/');
  await switchLanguage(p, 'kr');
  await p.getByTestId('header-signup').click();
  await waitForPath(p, '/agreement');
  await p.getByTestId('agree-terms').check();
  await p.getByTestId('agree-privacy').check();
  await p.getByTestId('agreement-next').click();
  await waitForPath(p, '/signup');
  await p.getByLabel('이름', { exact: true }).fill(m.name);
  await p.getByLabel('아이디', { exact: true }).fill(m.loginId);
  await p.getByTestId('check-id').click();
  await p.getByText('사용 가능한 아이디예요.').first().waitFor();
  await p.getByLabel('닉네임', { exact: true }).fill(m.nickname);
  await p.getByTestId('check-nickname').click();
  await p.getByText('사용 가능한 닉네임이에요.').first().waitFor();
  await p.getByLabel('비밀번호', { exact: true }).fill(m.password);
  await p.getByLabel('비밀번호 확인', { exact: true }).fill(m.password);
  await p.getByLabel('휴대폰 번호').fill(m.localPhone);
  const sentAfter = Date.now();
  await p.getByTestId('send-code').click();
  await p.getByLabel('인증번호', { exact: true }).fill(await e2e.server.smsCode(m.phoneE164, sentAfter));
  await p.getByTestId('verify-code').click();
  await p.getByTestId('verify-code').getByText('인증완료').waitFor();
  await screenshot(p, 'kycwalk-signup', 'kr', { idle: false });
  await p.getByTestId('signup-submit').click();
  await waitForPath(p, '/complete');
}

/** A second member over the API at level 1 (the identity code from the SMS outbox), with an ETH wallet. */
async function apiBuyer(): Promise<Member> {
  const m = await signupViaApi(e2e.server, { ...newMember(), name: BUYER_NAME });
  const { accessToken: token } = await apiOk<{ accessToken: string }>(
    e2e.server,
    'POST',
    '/api/v1/auth/login',
    undefined,
    { loginId: m.loginId, password: m.password },
  );
  const sentAfter = Date.now();
  await apiOk(e2e.server, 'POST', '/api/v1/kyc/identity', token, { name: m.name, birthDate: '1992-03-04' });
  const code = await e2e.server.smsCode(m.phoneE164, sentAfter);
  await apiOk(e2e.server, 'POST', '/api/v1/kyc/identity/verify', token, { code });
  await apiOk(e2e.server, 'POST', '/api/v1/wallets/create', token, { coinCode: 'ETH' });
  return { ...m, token };
}

/** /myinfo's wallet tab -> the ETH wallet's 보내기 -> /withdraw. */
async function openWithdraw(p: Page) {
  await p.goto('/myinfo');
  await p.getByTestId('tab-wallet').click();
  await p.locator('[data-testid="wallet-item"][data-coin="ETH"]').getByTestId('wallet-send').click();
  await waitForPath(p, '/withdraw');
  await p.getByTestId('withdraw-amount').waitFor();
}

// One walk: each step stands on the one before, so a failed step is not retried on a changed state.
describe('issue 25, walked: sign up, level 1, 1원, list, sell to a verified buyer, holds, Travel Rule, close', {
  retry: 0,
}, () => {
  beforeAll(async () => {
    op = await operatorToken(e2e.server);
    seller = (await e2e.mobilePage({ locale: 'ko-KR' })).page;
    buyer = (await e2e.mobilePage({ locale: 'ko-KR' })).page;
  });

  it('signs up through the signup form and logs in', async () => {
    await signupInKorean(seller, s);
    await seller.getByTestId('complete-login').click();
    await waitForPath(seller, '/login');
    await uiLogin(seller, { ...s, token: '' });
  });

  it('reaches level 1 in the 인증 센터 with the code sent to the phone', async () => {
    await seller.goto('/myinfo');
    await seller.getByTestId('to-verification').click();
    await waitForPath(seller, '/verification');
    await expect.poll(() => seller.getByTestId('kyc-level').textContent()).toBe('0');
    expect(await seller.getByTestId('kyc-name').inputValue()).toBe(SELLER_NAME);
    await seller.getByTestId('kyc-birth-date').fill('1990-05-01');
    const sentAfter = Date.now();
    await seller.getByTestId('kyc-identity-request').click();
    await seller.getByTestId('kyc-identity-sent').waitFor();
    await seller.getByTestId('kyc-code').fill(await e2e.server.smsCode(s.phoneE164, sentAfter));
    await seller.getByTestId('kyc-identity-verify').click();
    await expect.poll(() => seller.getByTestId('kyc-level').textContent()).toBe('1');
    expect(await seller.getByTestId('kyc-next-step').textContent()).toContain('1원');
  });

  it('verifies a bank account with the code in the 1 KRW deposit’s depositor name', async () => {
    await seller.getByTestId('bank-verify-bank').fill(BANK);
    await seller.getByTestId('bank-verify-account').fill(ACCOUNT);
    await seller.getByTestId('bank-verify-request').click();
    await seller.getByTestId('bank-verify-code').fill(await bankCode(ACCOUNT));
    await seller.getByTestId('bank-verify-submit').click();
    const status = seller.getByTestId('bank-verify-status');
    await expect.poll(() => status.textContent()).toContain(`${BANK} ${ACCOUNT}`);
    expect(await status.textContent()).toContain(SELLER_NAME);
    await status.scrollIntoViewIfNeeded();
    await screenshot(seller, 'kycwalk-bank-verified', 'kr', { idle: false });
  });

  it('creates an ETH wallet, gets a deposit and lists through the sell form, paid into the verified account', async () => {
    await seller.goto('/myinfo');
    await seller.getByTestId('tab-wallet').click();
    await seller.getByTestId('to-create-wallet').click();
    await waitForPath(seller, '/create_wallet');
    await seller.getByTestId('create-coin-ETH').click();
    await seller.getByTestId('create-submit').click();
    await waitForPath(seller, '/myinfo');
    await seller
      .locator('[data-testid="wallet-item"][data-coin="ETH"]')
      .getByTestId('wallet-receive')
      .click();
    await waitForPath(seller, '/deposit');
    const address = ((await seller.getByTestId('deposit-address').textContent()) ?? '').trim();
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    // the operator credits the deposit (the console's part, over its API)
    await fund(e2e.server, op, 'ETH', address, '1');
    await seller.goto('/transaction');
    await seller.getByTestId('to-sell').click();
    await waitForPath(seller, '/sell');
    await seller.getByTestId('sell-coin-ETH').click();
    await seller.getByTestId('sell-wallet-address').waitFor();
    await seller.getByTestId('sell-min').fill('0.01');
    await seller.getByTestId('sell-max').fill('0.5');
    await seller.getByTestId('sell-price').fill('5000000');
    await seller.getByTestId('sell-bank').selectOption(BANK);
    await seller.getByTestId('sell-account').fill(ACCOUNT);
    await seller.getByTestId('sell-submit').click();
    await seller.getByTestId('sell-review').waitFor();
    expect(await seller.getByTestId('sell-review-account').textContent()).toContain(`${BANK} ${ACCOUNT}`);
    expect(await seller.getByTestId('sell-review-holder').textContent()).toContain(SELLER_NAME);
    await seller.getByTestId('sell-password').fill(s.password);
    await seller.waitForTimeout(350);
    await screenshot(seller, 'kycwalk-sell-review', 'kr', { idle: false });
    await seller.getByTestId('sell-confirm').click();
    await waitForPath(seller, '/request_successfully');
    await seller.getByTestId('receipt-sell').waitFor();
    // the receipt's pay-in account is the verified one
    await seller.getByText(ACCOUNT, { exact: true }).waitFor();
    await seller.getByText(ACCOUNT, { exact: true }).scrollIntoViewIfNeeded();
    await screenshot(seller, 'kycwalk-sell-receipt', 'kr', { idle: false });
    expect(await approvePending(e2e.server, op)).toHaveLength(1);
  });

  it('the buyer’s purchase screen shows the outside address disabled while bought coins are held', async () => {
    b = await apiBuyer();
    await uiLogin(buyer, b);
    await switchLanguage(buyer, 'kr');
    await buyer.goto('/transaction');
    await buyer.getByTestId('listing-card').first().waitFor();
    await buyer.getByTestId('buy-instant').first().click();
    await waitForPath(buyer, '/purchase');
    await buyer.getByTestId('purchase-amount').fill('100000');
    await buyer.getByTestId('internal-address').waitFor();
    const held = buyer.getByTestId('dest-held');
    await held.waitFor();
    expect(await buyer.getByTestId('dest-EXTERNAL').isDisabled()).toBe(true);
    // a new member: 72 h (WITHDRAW_HOLD_NEW_SEC), the time in the shared format ("11월 29일 (일) 10:30")
    expect(await held.textContent()).toMatch(/\d+월 \d+일 .*\d\d:\d\d부터/);
    await shoot(buyer, 'purchase-external-held', 'dest-held');
    expect(await buyer.getByTestId('dest-EXTERNAL').isDisabled()).toBe(true);
    await buyer.getByTestId('purchase-amount').fill('100000');
  });

  it('buys into the own wallet (SMS check) and pays', async () => {
    await buyer.getByTestId('purchase-submit').click();
    await waitForPath(buyer, '/verify');
    const sentAfter = Date.now();
    await buyer.getByTestId('verify-send').click();
    await buyer.getByTestId('verify-code').fill(await e2e.server.smsCode(b.phoneE164, sentAfter));
    await buyer.getByTestId('verify-submit').click();
    await waitForPath(buyer, '/request_successfully');
    await buyer.getByTestId('pay-instruction').waitFor();
    await buyer.getByTestId('action-paid').click();
    await buyer.getByTestId('paid-dialog').waitFor();
    await buyer.getByTestId('confirm-yes').click();
    await buyer.locator('[data-testid="status-panel"][data-status="PAID"]').waitFor();
  });

  it('the seller’s order names the buyer’s verified name as the depositor; the release asks to confirm it', async () => {
    await seller.goto('/myinfo');
    await seller.getByTestId('tab-sellHistory').click();
    await seller.getByTestId('history-detail').first().click();
    await waitForPath(seller, '/view_details');
    orderPath = new URL(seller.url()).search;
    await expect.poll(() => seller.getByTestId('check-depositor').textContent()).toContain(BUYER_NAME);
    await shoot(seller, 'order-depositor', 'check-depositor');
    await seller.getByTestId('action-complete').click();
    await waitForPath(seller, '/proceed');
    expect(await seller.getByTestId('release-form').textContent()).toContain(BUYER_NAME);
    await seller.getByTestId('release-check-amount').check();
    await seller.getByTestId('release-check-name').check();
    await seller.getByTestId('proceed-txid').fill(`${BUYER_NAME} 10:30`);
    await seller.getByTestId('proceed-password').fill(s.password);
    await seller.getByTestId('proceed-submit').click();
    const sheet = seller.getByTestId('release-sheet');
    await sheet.waitFor();
    expect(await sheet.textContent()).toContain(BUYER_NAME);
    await seller.waitForTimeout(350);
    await screenshot(seller, 'kycwalk-release-confirm', 'kr', { idle: false });
    await seller.getByTestId('confirm-yes').click();
    await waitForPath(seller, '/myinfo');
    expect(orderPath).toContain('id=');
  });

  it('the buyer tries to withdraw the bought coins at once: held, with the time', async () => {
    await openWithdraw(buyer);
    const line = buyer.getByTestId('wallet-held');
    await line.waitFor();
    expect(await line.textContent()).toMatch(/0\.0200 ETH는 .*\d\d:\d\d부터/);
    await buyer.getByTestId('withdraw-dest-EXTERNAL').click();
    await buyer.getByTestId('withdraw-address').fill(OUTSIDE);
    await expect.poll(() => buyer.getByTestId('withdraw-available').textContent()).toBe('0.0000 ETH');
    await screenshot(buyer, 'kycwalk-withdraw-held', 'kr', { idle: false });
    await buyer.getByTestId('withdraw-max').click();
    await buyer.getByTestId('withdraw-submit').click();
    await buyer.getByTestId('withdraw-password').fill(b.password);
    await buyer.getByTestId('withdraw-confirm').click();
    const toast = buyer.getByRole('alert').filter({ hasText: '부터' });
    await toast.waitFor();
    expect(await toast.textContent()).toMatch(/\d\d:\d\d부터/);
    await screenshot(buyer, 'kycwalk-withdraw-held-refused', 'kr', { idle: false });
  });

  it('the seller withdraws 1,500,000 won worth to an outside address: the beneficiary is asked', async () => {
    await openWithdraw(seller);
    await seller.getByTestId('withdraw-dest-EXTERNAL').click();
    await seller.getByTestId('withdraw-address').fill(OUTSIDE);
    await seller.getByTestId('withdraw-amount').fill('0.3');
    await seller.getByTestId('withdraw-beneficiary').waitFor();
    expect(await seller.getByTestId('withdraw-submit').isDisabled()).toBe(true);
    await seller.getByTestId('beneficiary-name').fill('Park Minho');
    await seller.getByTestId('beneficiary-kind-VASP').click();
    await seller.getByTestId('beneficiary-vasp').fill('Upbit');
    await seller.getByTestId('withdraw-beneficiary').scrollIntoViewIfNeeded();
    await screenshot(seller, 'kycwalk-withdraw-beneficiary', 'kr', { idle: false });
    await seller.getByTestId('withdraw-submit').click();
    expect(await seller.getByTestId('review-beneficiary').textContent()).toContain('Park Minho');
    await seller.getByTestId('withdraw-password').fill(s.password);
    await seller.getByTestId('withdraw-confirm').click();
    await waitForPath(seller, '/wallet');
    const rows = await e2e.server.t.app.deps.db
      .selectFrom('withdrawal_travel_rule')
      .selectAll()
      .where('beneficiary_name', '=', 'Park Minho')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      originator_name: SELLER_NAME,
      beneficiary_kind: 'VASP',
      vasp_name: 'Upbit',
    });
  });

  it('a member with an empty balance closes the membership and cannot log in again', async () => {
    const m = await signupViaApi(e2e.server, newMember());
    const p = (await e2e.mobilePage({ locale: 'ko-KR' })).page;
    await uiLogin(p, { ...m, token: '' });
    await switchLanguage(p, 'kr');
    await p.goto('/myinfo');
    await p.getByTestId('to-account').click();
    await waitForPath(p, '/account');
    await p.getByTestId('close-membership').click();
    await p.getByTestId('close-sheet').waitFor();
    await p.getByTestId('close-password').fill(m.password);
    await p.waitForTimeout(350);
    await screenshot(p, 'kycwalk-close', 'kr', { idle: false });
    await p.getByTestId('close-confirm').click();
    await waitForPath(p, '/');
    const again = await e2e.server.t.call('POST', '/api/v1/auth/login', {
      body: { loginId: m.loginId, password: m.password },
    });
    expect(again.status).not.toBe(200);
  });
});
