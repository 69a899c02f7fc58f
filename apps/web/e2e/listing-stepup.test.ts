import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, consoleLogin, newPage, OPERATOR, PHONE, startOpsServer } from './ops-kit.ts';
import { SCREENSHOT_DIR } from './support/browser.ts';
import { waitForPath } from './support/flows.ts';
import { e2eSuite } from './support/suite.ts';
import {
  apiOk,
  createWallet,
  expectQty,
  fund,
  type Member,
  signedUpMember,
  switchLanguage,
  uiLogin,
  walletOf,
} from './trade-kit.ts';

/**
 * DECISIONS §13 as amended 2026-11-25, in the browser at 390x844: the sell form asks for the password in a
 * review sheet that shows the account buyers will pay into (a wrong or empty password holds nothing), and
 * the operator's review of a pending listing shows the seller's profile account beside the listing's with a
 * warning when they differ. Screenshots in kr and en.
 */
const e2e = e2eSuite(startOpsServer);
let opToken: string;
let seller: Member;

const PROFILE = { bankName: '신한은행', accountNo: '11012345678' };
const ELSEWHERE = { bank: '하나은행', accountNo: '99988877766' };

/** Saves a bank account on the member's profile (PUT /my with the current password, DECISIONS §13). */
async function saveProfileAccount(m: Member): Promise<void> {
  await apiOk(e2e.server, 'PUT', '/my', m.token, {
    nickName: m.nickname,
    password: '',
    countryCode: '82',
    phoneE164: m.phoneE164,
    ...PROFILE,
    currentPassword: m.password,
  });
}

/** The 390x844 viewport as test-output/screenshots/<lang>-<name>.png (a bottom sheet stays in frame). */
async function shot(page: Page, name: string, lang: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${lang}-${name}.png`), animations: 'disabled' });
}

async function fillSellForm(page: Page, account: { bank: string; accountNo: string }): Promise<void> {
  await page.getByTestId('sell-coin-BTC').click();
  await page.getByTestId('sell-wallet-address').waitFor();
  await page.getByTestId('sell-min').fill('0.01');
  await page.getByTestId('sell-max').fill('0.5');
  await page.getByTestId('sell-price').fill('10000000');
  await page.getByTestId('sell-bank').selectOption(account.bank);
  await page.getByTestId('sell-account').fill(account.accountNo);
}

beforeAll(async () => {
  opToken = await apiLogin(e2e.server, OPERATOR.loginId, OPERATOR.password);
  seller = await signedUpMember(e2e.server);
  await saveProfileAccount(seller);
  const w = await createWallet(e2e.server, seller.token, 'BTC');
  await fund(e2e.server, opToken, 'BTC', w.address, '1');
});

describe('a new listing asks for the step-up', () => {
  it('the sell form opens a review sheet with the pay-in account; no password or a wrong one holds nothing', async () => {
    const { context, page, errors } = await e2e.mobilePage();
    await uiLogin(page, seller);
    await switchLanguage(page, 'kr');
    await page.goto('/sell');
    await fillSellForm(page, { bank: PROFILE.bankName, accountNo: PROFILE.accountNo });
    await page.getByTestId('sell-submit').click();
    const sheet = page.getByTestId('sell-review');
    await sheet.waitFor();
    expect(await sheet.getByTestId('sell-review-qty').textContent()).toBe('0.01 - 0.5 BTC');
    expect(await sheet.getByTestId('sell-review-price').textContent()).toBe('10,000,000원');
    expect(await sheet.getByTestId('sell-review-account').textContent()).toBe('신한은행 11012345678');
    expect(await sheet.getByTestId('sell-review-holder').textContent()).toBe(seller.name);
    // The profile's own account: no warning.
    expect(await sheet.getByTestId('sell-review-other-account').count()).toBe(0);

    await page.getByTestId('sell-confirm').click();
    await sheet.getByText('비밀번호를 입력해 주세요.').waitFor();
    await page.getByTestId('sell-password').fill('wrong-pass1');
    await page.getByTestId('sell-confirm').click();
    await sheet.getByText('비밀번호가 올바르지 않아요.').waitFor();
    const w = await walletOf(e2e.server, seller.token, 'BTC');
    expectQty(w.escrowBalance, '0');
    expectQty(w.balance, '1');
    const mine = await apiOk<{ totalCount: number }>(e2e.server, 'GET', '/my/sell', seller.token);
    expect(mine.totalCount).toBe(0);
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });

    // Another account than the profile's: the sheet says the operator will check it.
    for (const lang of ['en', 'kr'] as const) {
      await switchLanguage(page, lang);
      await fillSellForm(page, ELSEWHERE);
      await page.getByTestId('sell-submit').click();
      await sheet.getByTestId('sell-review-other-account').waitFor();
      await page.getByTestId('sell-password').fill(seller.password);
      await page.waitForTimeout(350); // the sheet's slide-in
      await shot(page, 'sell-step-up', lang);
      if (lang === 'en') {
        await page.keyboard.press('Escape');
        await sheet.waitFor({ state: 'detached' });
      }
    }
    expect(await sheet.getByTestId('sell-review-other-account').textContent()).toContain(
      '내 정보에 저장된 계좌와 다른 계좌예요.',
    );
    await page.getByTestId('sell-confirm').click();
    await waitForPath(page, '/request_successfully');
    await page.getByTestId('receipt-sell').waitFor();
    expectQty((await walletOf(e2e.server, seller.token, 'BTC')).escrowBalance, '0.5');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("the operator's review shows the profile account and flags a difference", () => {
  it('a red badge and a warning in the confirmation for the other account; green for the same one', async () => {
    // A second seller lists into their profile account (through the API, with the step-up).
    const same = await signedUpMember(e2e.server);
    await saveProfileAccount(same);
    const w = await createWallet(e2e.server, same.token, 'ETH');
    await fund(e2e.server, opToken, 'ETH', w.address, '2');
    const sameId = (
      await apiOk<{ listingId: number }>(e2e.server, 'POST', '/api/v1/sell-listings', same.token, {
        walletId: w.id,
        minQty: '0.1',
        maxQty: '1',
        unitPriceKrw: 4_000_000,
        ...PROFILE,
        stepUp: { password: same.password },
      })
    ).listingId;
    const pending = await apiOk<{ list: { listingId: number; accountDiffersFromProfile: boolean }[] }>(
      e2e.server,
      'GET',
      '/ops/api/v1/listings?status=PENDING_REVIEW',
      opToken,
    );
    const otherId = pending.list.find((l) => l.listingId !== sameId)?.listingId ?? 0;
    expect(pending.list.find((l) => l.listingId === otherId)?.accountDiffersFromProfile).toBe(true);

    const { context, page, errors } = await newPage(e2e.browser, e2e.server.baseUrl, PHONE);
    await consoleLogin(page, OPERATOR);
    await waitForPath(page, '/ops');
    await page.goto('/ops/listings');
    const otherRow = page.getByTestId(`listing-row-${otherId}`);
    const sameRow = page.getByTestId(`listing-row-${sameId}`);
    await otherRow.waitFor();
    // Flagged in the first column (on screen before the table scrolls) and beside the two accounts.
    expect(await otherRow.locator('td').first().getByTestId('account-differs').textContent()).toBe(
      '⚠ Other account',
    );
    const check = otherRow.getByTestId(`profile-account-${otherId}`);
    expect(await check.textContent()).toContain(`Profile: 신한은행 11012345678 (${seller.name})`);
    expect(await check.getByTestId('account-differs').textContent()).toBe('⚠ Differs from profile');
    expect(await otherRow.textContent()).toContain('하나은행');
    expect(await sameRow.getByTestId('account-matches').textContent()).toBe('Same as profile');
    expect(await sameRow.getByTestId('account-differs').count()).toBe(0);

    for (const lang of ['en', 'kr'] as const) {
      await page.evaluate((l) => window.localStorage.setItem('language', l), lang);
      await page.reload();
      await otherRow.getByTestId('account-differs').first().waitFor();
      await shot(page, 'ops-listing-review', lang);
      await page.getByTestId(`approve-${otherId}`).click();
      const dialog = page.getByTestId('confirm-dialog');
      await dialog.getByTestId('account-differs').waitFor();
      await page.waitForTimeout(350); // the sheet's slide-in
      await shot(page, 'ops-listing-review-confirm', lang);
      if (lang === 'kr') {
        expect(await dialog.getByTestId('account-differs').textContent()).toBe('⚠ 회원 정보 계좌와 다름');
        expect(await dialog.getByTestId('confirm-warning').textContent()).toContain(
          '승인 전에 판매자에게 확인하세요.',
        );
      }
      await page.getByTestId('confirm-cancel').click();
      await dialog.waitFor({ state: 'detached' });
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});
