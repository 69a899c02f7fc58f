import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/browser.ts';
import { e2eSuite } from './support/suite.ts';
import {
  apiOk,
  approvePending,
  createWallet,
  expectToast,
  fund,
  type Member,
  operatorToken,
  signedUpMember,
  switchLanguage,
  uiLogin,
} from './trade-kit.ts';

/**
 * DECISIONS §19 "Counterparts" and "Records" in a 390x844 browser on the real API: a member blocks a seller
 * from the purchase screen, the seller's listing leaves their trade list and the seller cannot buy from the
 * blocker's listing; /account shows the block list and the login history; a member closes an empty membership
 * through the 회원 탈퇴 sheet and cannot sign in again.
 */
const e2e = e2eSuite();
let op: string;
let seller: Member;
let blocker: Member;

/** A funded member with an approved 0.5 BTC listing at 10,000,000 won (over the API, password step-up). */
async function listingOf(m: Member): Promise<void> {
  const wallet = await createWallet(e2e.server, m.token, 'BTC');
  await fund(e2e.server, op, 'BTC', wallet.address, '1');
  await apiOk(e2e.server, 'POST', '/api/v1/sell-listings', m.token, {
    walletId: wallet.id,
    minQty: '0.001',
    maxQty: '0.5',
    unitPriceKrw: 10_000_000,
    bankName: '신한은행',
    accountNo: '11012345678',
    stepUp: { password: m.password },
  });
  await approvePending(e2e.server, op);
}

/** The card of `nickname`'s listing on /transaction. */
const cardOf = (page: Page, nickname: string) =>
  page.getByTestId('listing-card').filter({ has: page.getByTestId('listing-seller').getByText(nickname) });

/** Screenshots the current page in en and kr as records-<name>, waiting for `ready`; leaves it in kr. */
async function shoot(page: Page, name: string, ready: string) {
  for (const lang of ['en', 'kr'] as const) {
    await switchLanguage(page, lang);
    await page.getByTestId(ready).first().waitFor();
    await page.waitForTimeout(350);
    await screenshot(page, `records-${name}`, lang);
  }
}

describe('blocking a counterpart', () => {
  let blockerPage: Page;
  let sellerPage: Page;
  beforeAll(async () => {
    op = await operatorToken(e2e.server);
    seller = await signedUpMember(e2e.server);
    blocker = await signedUpMember(e2e.server);
    await listingOf(seller);
    await listingOf(blocker);
    blockerPage = (await e2e.mobilePage()).page;
    sellerPage = (await e2e.mobilePage()).page;
    await uiLogin(blockerPage, blocker);
    await uiLogin(sellerPage, seller);
    await switchLanguage(blockerPage, 'kr');
    await switchLanguage(sellerPage, 'kr');
  });

  it("the blocker blocks the seller from the purchase screen and the seller's listing disappears", async () => {
    const p = blockerPage;
    await p.goto('/transaction');
    await cardOf(p, seller.nickname).getByTestId('buy-instant').click();
    await p.waitForURL((u) => u.pathname === '/purchase');
    await shoot(p, 'purchase-block', 'block-member');
    await p.getByTestId('block-member').click();
    await p.getByTestId('confirm-modal').waitFor();
    await p.waitForTimeout(300);
    await screenshot(p, 'records-block-confirm', 'kr', { idle: false });
    await p.getByTestId('confirm-yes').click();
    await expectToast(p, `${seller.nickname}님을 차단했어요.`);
    await p.getByTestId('unblock-member').waitFor();

    await p.goto('/transaction');
    await cardOf(p, blocker.nickname).waitFor();
    expect(await cardOf(p, seller.nickname).count()).toBe(0);
    // The seller (not a blocker) still sees both.
    await sellerPage.goto('/transaction');
    await cardOf(sellerPage, blocker.nickname).waitFor();
    await cardOf(sellerPage, seller.nickname).waitFor();
  });

  it("the blocked seller cannot buy from the blocker's listing (BLOCKED, nothing ordered)", async () => {
    const p = sellerPage;
    await p.goto('/transaction');
    await cardOf(p, blocker.nickname).getByTestId('buy-instant').click();
    await p.waitForURL((u) => u.pathname === '/purchase');
    await p.getByTestId('purchase-amount').fill('50,000');
    await p.getByTestId('internal-address').waitFor();
    await p.getByTestId('purchase-submit').click();
    await p.waitForURL((u) => u.pathname === '/verify');
    const sentAfter = Date.now();
    await p.getByTestId('verify-send').click();
    await expectToast(p, '인증번호가 발송됐어요.');
    await p.getByTestId('verify-code').fill(await e2e.server.smsCode(seller.phoneE164, sentAfter));
    await p.getByTestId('verify-submit').click();
    await expectToast(p, '차단 관계인 회원과는 거래할 수 없어요.');
    const orders = await e2e.server.t.app.deps.db.selectFrom('buy_orders').select('id').execute();
    expect(orders).toEqual([]);
  });

  it('/account lists the block and the login history; unblocking brings the listing back', async () => {
    const p = blockerPage;
    await p.goto('/account');
    await p.getByTestId('blocked-members').getByText(seller.nickname).waitFor();
    await p.getByTestId('login-history').getByTestId('login-result').first().waitFor();
    await shoot(p, 'account', 'login-result');
    await p.getByTestId('blocked-members').getByRole('button').first().click();
    await expectToast(p, `${seller.nickname}님의 차단을 해제했어요.`);
    await p.goto('/transaction');
    await cardOf(p, seller.nickname).waitFor();
  });
});

describe('closing a membership', () => {
  it('a member closes an empty membership through the sheet, is signed out and cannot sign in again', async () => {
    const m = await signedUpMember(e2e.server);
    const { page: p } = await e2e.mobilePage();
    await uiLogin(p, m);
    await switchLanguage(p, 'kr');
    await p.goto('/account');
    await p.getByTestId('close-membership').click();
    await p.getByTestId('close-sheet').waitFor();
    await p.waitForTimeout(400);
    await screenshot(p, 'records-close-sheet', 'kr', { idle: false });
    await p.getByTestId('close-password').fill('wrong-pass1');
    await p.getByTestId('close-confirm').click();
    await p.getByTestId('close-error').waitFor();
    await p.getByTestId('close-password').fill(m.password);
    await p.getByTestId('close-confirm').click();
    // Signed out and home (the toast said so, but the navigation may clear it before it is seen).
    await p.waitForURL((u) => u.pathname === '/');
    await p.getByTestId('header-login').waitFor();

    // The logout after closing forgets the stored language too (SPEC §4): back to kr for the texts below.
    await p.goto('/login');
    await switchLanguage(p, 'kr');
    await p.getByTestId('login-submit').waitFor();
    await p.locator('input[autocomplete="username"], input[name="loginId"]').first().fill(m.loginId);
    await p.locator('input[type="password"]').first().fill(m.password);
    await p.getByTestId('login-submit').click();
    await expectToast(p, '탈퇴한 계정이에요. 서비스를 이용하려면 다시 가입해 주세요.');
    expect(new URL(p.url()).pathname).toBe('/login');
    const closed = await e2e.server.t.call('POST', '/api/v1/auth/login', {
      body: { loginId: m.loginId, password: m.password },
    });
    expect(closed.body.returnMessage).toBe('MEMBER_CLOSED');
  });

  it('the sheet in en says what is kept', async () => {
    const m = await signedUpMember(e2e.server);
    const { page: p } = await e2e.mobilePage();
    await uiLogin(p, m);
    await switchLanguage(p, 'en');
    await p.goto('/account');
    await p.getByTestId('close-membership').click();
    await p.getByTestId('close-sheet').getByText('kept for 5 years').waitFor();
    await p.waitForTimeout(400);
    await screenshot(p, 'records-close-sheet', 'en', { idle: false });
  });
});
