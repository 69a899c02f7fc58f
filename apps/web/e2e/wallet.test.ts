import { maskName } from '@p2p/contract';
import jsQR from 'jsqr';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/browser.ts';
import { e2eSuite } from './support/suite.ts';
import {
  allowClipboard,
  apiOk,
  createWallet,
  expectQty,
  expectToast,
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
 * Wallets in the browser ("Must show"): create, detail with transfer history, a withdrawal to
 * another member (internal) and to an outside address (external, pending), the SPEC §5 amount rules,
 * and the deposit page's QR code decoded back to the wallet address.
 */
const e2e = e2eSuite({ WITHDRAW_FEE_ETH: '0.01' });
let member: Member;
let friendAddress: string;
let friendNickname: string;
let outsideAddress: string;
let page: Page;

async function openWalletAction(p: Page, action: 'detail' | 'send' | 'receive') {
  await p.goto('/myinfo');
  await p.getByTestId('tab-wallet').click();
  await p.locator('[data-testid="wallet-item"][data-coin="ETH"]').getByTestId(`wallet-${action}`).click();
}

describe('wallets in the browser', () => {
  beforeAll(async () => {
    // A withdrawal fee, so the review sheet has one to show (DECISIONS §3).
    const op = await operatorToken(e2e.server);
    member = await signedUpMember(e2e.server);
    const friend = await signedUpMember(e2e.server);
    friendAddress = (await createWallet(e2e.server, friend.token, 'ETH')).address;
    friendNickname = friend.nickname;
    const outsider = await signedUpMember(e2e.server);
    outsideAddress = (await createWallet(e2e.server, outsider.token, 'ETH')).address;
    const opened = await e2e.mobilePage();
    page = opened.page;
    await allowClipboard(opened.context, e2e.server.baseUrl);
    await uiLogin(page, member);
    await switchLanguage(page, 'kr');

    await page.goto('/create_wallet');
    await page.getByTestId('create-coin-ETH').click();
    await page.getByTestId('create-submit').click();
    await expectToast(page, '지갑이 성공적으로 생성됐어요!');
    await fund(e2e.server, op, 'ETH', (await walletOf(e2e.server, member.token, 'ETH')).address, '2.5');
  });

  it('creating a wallet offers only coins without one', async () => {
    await page.goto('/create_wallet');
    await page.getByTestId('create-coin-BTC').waitFor();
    expect(await page.getByTestId('create-coin-ETH').count()).toBe(0);
  });

  it('the wallet detail shows the balance and the transfer history', async () => {
    await openWalletAction(page, 'detail');
    await page.waitForURL((u) => u.pathname === '/wallet');
    await expect.poll(() => page.getByTestId('wallet-balance').textContent()).toBe('2.5000 ETH');
    await page.locator('[data-testid="transfer-row"][data-type="DEPOSIT"]').waitFor();
    await shootBoth(page, 'wallet', 'transfer-row');
  });

  it('sends internally to another member and externally to an outside address (SPEC §5 amount rules)', async () => {
    await openWalletAction(page, 'send');
    await page.waitForURL((u) => u.pathname === '/withdraw');
    await shootBoth(page, 'withdraw', 'withdraw-amount');
    const amount = page.getByTestId('withdraw-amount');
    await amount.fill('1234.5678919');
    expect(await amount.inputValue()).toBe('1,234.567891');
    await page.getByText('출금 가능 수량을 초과했어요.').waitFor();
    await page.getByTestId('withdraw-address').fill(friendAddress);
    expect(await page.getByTestId('withdraw-submit').isDisabled()).toBe(true);
    await amount.fill('0.5');
    // Internal transfers are final too: the same review sheet, no fee, and the password (DECISIONS §13).
    await page.getByTestId('withdraw-submit').click();
    await page.getByTestId('withdraw-review').waitFor();
    expect(await page.getByTestId('review-fee').textContent()).toContain('0 ETH');
    // the member it reaches, masked as public lists mask names (DECISIONS §10)
    expect(await page.getByTestId('review-recipient').textContent()).toBe(maskName(friendNickname));
    await page.getByTestId('withdraw-password').fill(member.password);
    await page.getByTestId('withdraw-confirm').click();
    await expectToast(page, '전송이 완료됐어요.');
    await page.waitForURL((u) => u.pathname === '/wallet');
    await expect.poll(() => page.getByTestId('wallet-balance').textContent()).toBe('2.0000 ETH');

    // External: a review sheet (address, amount, fee, what arrives, cannot be undone) and the password
    // (DECISIONS §13 step-up) before anything is sent.
    await page.getByTestId('wallet-send').click();
    await page.waitForURL((u) => u.pathname === '/withdraw');
    const review = async () => {
      await page.getByTestId('withdraw-dest-EXTERNAL').click();
      await page.getByTestId('withdraw-address').fill(outsideAddress);
      await page.getByTestId('withdraw-amount').fill('0.25');
      await page.getByTestId('withdraw-submit').click();
      await page.getByTestId('withdraw-review').waitFor();
    };
    for (const lang of ['en', 'kr'] as const) {
      await switchLanguage(page, lang);
      await review();
      await page.getByTestId('withdraw-password').fill(member.password);
      await page.waitForTimeout(350); // the sheet's slide-in
      await screenshot(page, 'wallet-withdraw-review', lang);
    }
    const sheet = page.getByTestId('withdraw-review');
    expect(await sheet.getByTestId('review-address').textContent()).toBe(outsideAddress);
    expect(await sheet.getByTestId('review-amount').textContent()).toBe('0.25 ETH');
    expect(await sheet.getByTestId('review-fee').textContent()).toBe('0.01 ETH');
    expect(await sheet.getByTestId('review-total').textContent()).toBe('0.26 ETH');
    expect(await sheet.getByTestId('review-arrives').textContent()).toBe('0.25 ETH');
    await sheet.getByText('외부 주소로 보낸 출금은 되돌릴 수 없어요.', { exact: false }).waitFor();
    await page.getByTestId('withdraw-password').fill('');
    await page.getByTestId('withdraw-confirm').click();
    await sheet.getByText('비밀번호를 입력해 주세요.').waitFor();
    await page.getByTestId('withdraw-password').fill('wrong-pass1');
    await page.getByTestId('withdraw-confirm').click();
    await sheet.getByText('비밀번호가 올바르지 않아요.').waitFor();
    expectQty((await walletOf(e2e.server, member.token, 'ETH')).balance, '2');
    await page.getByTestId('withdraw-password').fill(member.password);
    await page.getByTestId('withdraw-confirm').click();
    await expectToast(page, '출금 신청이 완료됐어요.');
    await page.waitForURL((u) => u.pathname === '/wallet');
    await page.locator('[data-testid="transfer-row"][data-status="PENDING"]').waitFor();
    await expect.poll(() => page.getByTestId('transfer-row').count()).toBe(3);

    expectQty((await walletOf(e2e.server, member.token, 'ETH')).balance, '1.74');
    const friendTokenless = await apiOk<{ list: unknown[] }>(
      e2e.server,
      'GET',
      `/transfer?walletId=${(await walletOf(e2e.server, member.token, 'ETH')).id}`,
      member.token,
    );
    expect(friendTokenless.list).toHaveLength(3);
    await e2e.server.t.assertLedger();
  });

  it("the deposit page's QR code decodes to the wallet address; copy confirms for 2 s", async () => {
    const address = (await walletOf(e2e.server, member.token, 'ETH')).address;
    await openWalletAction(page, 'receive');
    await page.waitForURL((u) => u.pathname === '/deposit');
    const qr = page.getByTestId('deposit-qr');
    await qr.waitFor();
    expect(await qr.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(240);
    const png = PNG.sync.read(await qr.screenshot());
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(decoded?.data).toBe(address);
    expect(await page.getByTestId('deposit-address').textContent()).toBe(address);

    await page.getByTestId('deposit-copy').click();
    await page.getByTestId('deposit-copy').getByText('복사됐어요!').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);
    await page.getByTestId('deposit-copy').getByText('주소 복사').waitFor({ timeout: 4000 });
    await shootBoth(page, 'deposit', 'deposit-qr');
  });
});
