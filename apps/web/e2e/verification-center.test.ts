import { randomInt } from 'node:crypto';
import { receiveQty } from '@p2p/contract';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { memberByLoginId } from '../../api/src/modules/identity/index.ts';
import { PRODUCTION_TRUST } from '../../api/test/helpers.ts';
import { screenshot } from './support/browser.ts';
import { newMember, signupViaApi } from './support/flows.ts';
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
  walletOf,
} from './trade-kit.ts';

/**
 * DECISIONS §19 in a 390x844 browser on the real API with the §19 knobs as production sets them
 * (KYC_TRADE_LEVEL=1, the 1원 check required, 24 h / 72 h holds, the Travel Rule from 1,000,000 won): a new
 * user reaches level 1 in the 인증 센터 with the code sent to their phone, verifies a bank account with the
 * code in the 1 KRW deposit's depositor name, lists coins paid into that account only, buys from another
 * member who sees the buyer's verified name as the expected depositor, is refused the withdrawal of the bought
 * coins (held, with the time and a link to what the hold is), withdraws 1,500,000 won worth to an outside
 * address after the beneficiary step, and another new user closes an empty membership.
 * ETH at the fake upstream's 5,012,345.5 won: 0.3 ETH = 1,503,703 won (Travel Rule), 0.1 ETH = 501,234.
 */
const e2e = e2eSuite({ ...PRODUCTION_TRUST, KYC_TRADE_LEVEL: '1' });

let op: string;
let me: Member;
let page: Page;
const BANK = '신한은행';
const ACCOUNT = `110${randomInt(10_000_000, 99_999_999)}`;
/** An outside address: another member's deposit address would be internal, so a fixed foreign one. */
const OUTSIDE = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';

/** Screenshots the current page in en and kr as kyc-<name>, waiting for `ready`; leaves it in kr. */
async function shoot(p: Page, name: string, ready: string) {
  for (const lang of ['en', 'kr'] as const) {
    await switchLanguage(p, lang);
    await p.getByTestId(ready).first().waitFor();
    await p.waitForTimeout(350);
    await screenshot(p, `kyc-${name}`, lang, { idle: false });
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

/** Opens /withdraw for the member's ETH wallet from /myinfo's wallet tab. */
async function openWithdraw(p: Page) {
  await p.goto('/myinfo');
  await p.getByTestId('tab-wallet').click();
  await p.locator('[data-testid="wallet-item"][data-coin="ETH"]').getByTestId('wallet-send').click();
  await p.waitForURL((u) => u.pathname === '/withdraw');
  await p.getByTestId('withdraw-amount').waitFor();
}

/** On /withdraw: an external withdrawal of `amount` ETH to OUTSIDE. */
async function fillExternal(p: Page, amount: string) {
  await p.getByTestId('withdraw-dest-EXTERNAL').click();
  await p.getByTestId('withdraw-address').fill(OUTSIDE);
  await p.getByTestId('withdraw-amount').fill(amount);
}

/** The beneficiary step (it must be showing): a receiver at another exchange. */
async function fillBeneficiary(p: Page) {
  await p.getByTestId('withdraw-beneficiary').waitFor();
  await p.getByTestId('beneficiary-name').fill('Park Minho');
  await p.getByTestId('beneficiary-kind-VASP').click();
  await p.getByTestId('beneficiary-vasp').fill('Upbit');
}

describe('the verification center, walked by a new user', () => {
  beforeAll(async () => {
    op = await operatorToken(e2e.server);
    const m = await signupViaApi(e2e.server, { ...newMember(), name: 'Lee Jiwon' });
    const { accessToken } = await apiOk<{ accessToken: string }>(
      e2e.server,
      'POST',
      '/api/v1/auth/login',
      undefined,
      { loginId: m.loginId, password: m.password },
    );
    me = { ...m, token: accessToken };
    page = (await e2e.mobilePage()).page;
    await uiLogin(page, me);
    await switchLanguage(page, 'kr');
  });

  it('level 0 cannot list coins: 422 KYC_REQUIRED {level: 1}', async () => {
    const w = await createWallet(e2e.server, me.token, 'ETH');
    const r = await e2e.server.t.call('POST', '/api/v1/sell-listings', {
      token: me.token,
      body: {
        walletId: w.id,
        minQty: '0.01',
        maxQty: '0.1',
        unitPriceKrw: 5_000_000,
        bankName: BANK,
        accountNo: ACCOUNT,
        stepUp: { password: me.password },
      },
    });
    expect(r.body).toMatchObject({ returnMessage: 'KYC_REQUIRED', returnData: { level: 1 } });
  });

  it('reaches level 1 with the code the identity provider sent to the phone', async () => {
    await page.goto('/myinfo');
    await page.getByTestId('to-verification').click();
    await page.waitForURL((u) => u.pathname === '/verification');
    await expect.poll(() => page.getByTestId('kyc-level').textContent()).toBe('0');
    expect(await page.getByTestId('kyc-next-step').textContent()).toContain('본인 인증');
    expect(await page.getByTestId('kyc-allows-1').textContent()).toContain('5,000,000');
    await shoot(page, 'center-level0', 'kyc-identity-request');
    expect(await page.getByTestId('kyc-name').inputValue()).toBe('Lee Jiwon');
    await page.getByTestId('kyc-birth-date').fill('1990-05-01');
    const before = Date.now();
    await page.getByTestId('kyc-identity-request').click();
    await page.getByTestId('kyc-identity-sent').waitFor();
    // a wrong code first: the refusal is a toast and the level stays
    await page.getByTestId('kyc-code').fill('000000');
    const code = await e2e.server.smsCode(me.phoneE164, before);
    if (code !== '000000') {
      await page.getByTestId('kyc-identity-verify').click();
      await expectToast(page, '인증번호');
    }
    await page.getByTestId('kyc-code').fill(code);
    await page.getByTestId('kyc-identity-verify').click();
    await expect.poll(() => page.getByTestId('kyc-level').textContent()).toBe('1');
    expect(await page.getByTestId('kyc-identity-done').textContent()).toContain('Lee Jiwon');
    expect(await page.getByTestId('kyc-next-step').textContent()).toContain('1원');
  });

  it('verifies a bank account with the code in the 1 KRW deposit’s depositor name', async () => {
    await page.getByTestId('bank-verify-bank').fill(BANK);
    await page.getByTestId('bank-verify-account').fill(ACCOUNT);
    await page.getByTestId('bank-verify-request').click();
    await page.getByTestId('bank-verify-code').waitFor();
    const code = await bankCode(ACCOUNT);
    await page.getByTestId('bank-verify-code').fill(code);
    await page.getByTestId('bank-verify-submit').click();
    await expect
      .poll(() => page.getByTestId('bank-verify-status').textContent())
      .toContain(`${BANK} ${ACCOUNT}`);
    expect(await page.getByTestId('bank-verify-status').textContent()).toContain('Lee Jiwon');
    await shoot(page, 'center-level1', 'bank-verify-status');
  });

  it('a listing pays only into the verified account', async () => {
    const w = await walletOf(e2e.server, me.token, 'ETH');
    await fund(e2e.server, op, 'ETH', w.address, '1');
    const body = (accountNo: string) => ({
      walletId: w.id,
      minQty: '0.01',
      maxQty: '0.1',
      unitPriceKrw: 5_000_000,
      bankName: BANK,
      accountNo,
      stepUp: { password: me.password },
    });
    const other = await e2e.server.t.call('POST', '/api/v1/sell-listings', {
      token: me.token,
      body: body('11099990000'),
    });
    expect(other.body.returnMessage).toBe('BANK_ACCOUNT_NOT_VERIFIED');
    const listing = await apiOk<{ bankName: string; accountNo: string }>(
      e2e.server,
      'POST',
      '/api/v1/sell-listings',
      me.token,
      body(ACCOUNT),
    );
    expect(listing).toMatchObject({ bankName: BANK, accountNo: ACCOUNT });
  });

  it('buys from another member, whose release screen names the buyer’s verified name as the depositor', async () => {
    const seller = await signedUpMember(e2e.server);
    const sellerRow = await memberByLoginId(e2e.server.t.app.deps.db, seller.loginId);
    if (!sellerRow) throw new Error('no seller');
    const { seedVerifiedAccount } = await import('../../api/src/modules/bank/index.ts');
    await seedVerifiedAccount(e2e.server.t.app.deps.db, {
      memberId: sellerRow.id,
      bankName: '국민은행',
      accountNo: '123456789012',
      holderName: seller.name,
    });
    const sw = await createWallet(e2e.server, seller.token, 'ETH');
    await fund(e2e.server, op, 'ETH', sw.address, '1');
    const listing = await apiOk<{ listingId: number }>(
      e2e.server,
      'POST',
      '/api/v1/sell-listings',
      seller.token,
      {
        walletId: sw.id,
        minQty: '0.01',
        maxQty: '0.5',
        unitPriceKrw: 5_000_000,
        bankName: '국민은행',
        accountNo: '123456789012',
        stepUp: { password: seller.password },
      },
    );
    await approvePending(e2e.server, op);
    const mine = await walletOf(e2e.server, me.token, 'ETH');
    await apiOk(e2e.server, 'POST', '/sms/request', me.token, { phone: me.phoneE164 });
    const phoneCode = await e2e.server.smsCode(me.phoneE164, Date.now() - 50);
    await apiOk(e2e.server, 'POST', '/sms/verify', me.token, { phone: me.phoneE164, code: phoneCode });
    const order = await apiOk<{ orderId: number }>(e2e.server, 'POST', '/buy-orders', me.token, {
      listingId: listing.listingId,
      krwAmount: 100_000,
      requestQty: receiveQty(100_000, 5_000_000),
      destType: 'INTERNAL',
      destWalletId: mine.id,
    });
    await apiOk(e2e.server, 'POST', `/buy-orders/${order.orderId}/paid`, me.token);
    const sp = (await e2e.mobilePage()).page;
    await uiLogin(sp, seller);
    await switchLanguage(sp, 'kr');
    await sp.goto(`/view_details?id=${order.orderId}&type=sell-history`);
    await sp.getByTestId('action-complete').click();
    await sp.waitForURL((u) => u.pathname === '/proceed');
    await sp.getByTestId('release-form').waitFor();
    expect(await sp.getByTestId('release-form').textContent()).toContain('Lee Jiwon');
    await apiOk(e2e.server, 'POST', `/buy-orders/${order.orderId}/complete`, seller.token, {
      txid: 'Lee Jiwon 10:30',
      stepUp: { password: seller.password },
    });
  });

  it('the bought coins are held: the withdrawal is refused with the time and a link to what the hold is', async () => {
    const wallets = await apiOk<
      { coinCode: string; withdrawableBalance: string; heldUntil: string | null }[]
    >(e2e.server, 'GET', '/api/v1/wallets', me.token);
    expect(wallets.find((x) => x.coinCode === 'ETH')?.heldUntil).not.toBeNull();
    await openWithdraw(page);
    await page.getByTestId('withdraw-dest-EXTERNAL').click();
    await page.getByTestId('withdraw-address').fill(OUTSIDE);
    // to an outside address only the free part counts as withdrawable (balances show at least 4 decimals)
    await expect.poll(() => page.getByTestId('withdraw-available').textContent()).toBe('0.9000 ETH');
    // everything available: the free 0.9 and the bought, held coins
    await page.getByTestId('withdraw-max').click();
    await page.getByTestId('withdraw-beneficiary').waitFor();
    await page.getByTestId('beneficiary-name').fill('Lee Jiwon');
    await page.getByTestId('withdraw-submit').click();
    await page.getByTestId('withdraw-password').fill(me.password);
    await page.getByTestId('withdraw-confirm').click();
    const toast = page.getByRole('alert').filter({ hasText: '부터' });
    await toast.waitFor();
    expect(await toast.textContent()).toMatch(/\d/);
    await page.getByTestId('refusal-step').click();
    await page.waitForURL((u) => u.pathname === '/verification' && u.hash === '#holds');
    await page.getByTestId('kyc-holds').waitFor();
  });

  it('withdraws 1,500,000 won worth to an outside address after the beneficiary step (asked only then)', async () => {
    await openWithdraw(page);
    await fillExternal(page, '0.1');
    // below 1,000,000 won: no beneficiary step once the quote is in
    await expect.poll(() => page.getByTestId('withdraw-submit').isDisabled()).toBe(false);
    expect(await page.getByTestId('withdraw-beneficiary').count()).toBe(0);
    await page.getByTestId('withdraw-amount').fill('0.3');
    await page.getByTestId('withdraw-beneficiary').waitFor();
    expect(await page.getByTestId('withdraw-submit').isDisabled()).toBe(true);
    await fillBeneficiary(page);
    for (const lang of ['en', 'kr'] as const) {
      await switchLanguage(page, lang);
      await fillExternal(page, '0.3');
      await fillBeneficiary(page);
      await page.waitForTimeout(350);
      await page.getByTestId('withdraw-beneficiary').scrollIntoViewIfNeeded();
      await screenshot(page, 'kyc-withdraw-beneficiary', lang, { idle: false });
    }
    await page.getByTestId('withdraw-submit').click();
    expect(await page.getByTestId('review-beneficiary').textContent()).toContain('Park Minho');
    await page.getByTestId('withdraw-password').fill(me.password);
    await page.getByTestId('withdraw-confirm').click();
    await page.waitForURL((u) => u.pathname === '/wallet');
    const rows = await e2e.server.t.app.deps.db
      .selectFrom('withdrawal_travel_rule')
      .selectAll()
      .where('beneficiary_name', '=', 'Park Minho')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      originator_name: 'Lee Jiwon',
      beneficiary_kind: 'VASP',
      vasp_name: 'Upbit',
    });
  });

  it('changes the verified account: the password (step-up) and a new 1 KRW check', async () => {
    const next = `110${randomInt(10_000_000, 99_999_999)}`;
    await page.goto('/verification#bank');
    await page.getByTestId('bank-verify-bank').fill('하나은행');
    await page.getByTestId('bank-verify-account').fill(next);
    // without the password the change cannot be asked
    expect(await page.getByTestId('bank-verify-request').isDisabled()).toBe(true);
    await page.getByTestId('bank-verify-password').fill(me.password);
    await page.getByTestId('bank-verify-request').click();
    await page.getByTestId('bank-verify-code').fill(await bankCode(next));
    await page.getByTestId('bank-verify-submit').click();
    await expect
      .poll(() => page.getByTestId('bank-verify-status').textContent())
      .toContain(`하나은행 ${next}`);
  });

  it('a new user closes an empty membership', async () => {
    const m = await signupViaApi(e2e.server, newMember());
    const p = (await e2e.mobilePage()).page;
    await uiLogin(p, { ...m, token: '' });
    await p.goto('/account');
    await p.getByTestId('close-membership').click();
    await p.getByTestId('close-sheet').waitFor();
    await p.getByTestId('close-password').fill(m.password);
    await p.getByTestId('close-confirm').click();
    await p.waitForURL((u) => u.pathname === '/');
    const again = await e2e.server.t.call('POST', '/api/v1/auth/login', {
      body: { loginId: m.loginId, password: m.password },
    });
    expect(again.status).not.toBe(200);
  });
});
