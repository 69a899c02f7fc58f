import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOT_DIR, screenshot } from './support/browser.ts';
import { e2eSuite } from './support/suite.ts';
import {
  approvePending,
  createWallet,
  fund,
  type Member,
  operatorToken,
  signedUpMember,
  uiLogin,
} from './trade-kit.ts';

/**
 * The screens at the money moments: the operator's company details in the footer, the won value
 * of holdings, and a withdrawal address checked at the field. Screenshots in kr, en and jp.
 */
const e2e = e2eSuite({
  COMPANY_NAME: '(주)코인마켓',
  COMPANY_CEO: '홍길동',
  COMPANY_REG_NO: '123-45-67890',
  COMPANY_VASP_NO: '2024-001',
  COMPANY_SUPPORT: '1588-0000',
});
let member: Member;
let op: string;

const LANGS = ['kr', 'en', 'jp'] as const;

async function inLanguage(page: Page, lang: (typeof LANGS)[number]): Promise<void> {
  await page.evaluate((l) => window.localStorage.setItem('language', l), lang);
  await page.reload();
}

/** floor(qty x krw) in whole won, with bigint (the screens must show exactly this). */
function won(qty: string, krw: number): string {
  const [i = '0', f = ''] = qty.split('.');
  const units = BigInt(i + f.padEnd(8, '0'));
  return ((units * BigInt(krw)) / 10n ** 8n).toLocaleString('en-US');
}

beforeAll(async () => {
  op = await operatorToken(e2e.server);
  member = await signedUpMember(e2e.server);
  const eth = await createWallet(e2e.server, member.token, 'ETH');
  await fund(e2e.server, op, 'ETH', eth.address, '0.5');
  const trx = await createWallet(e2e.server, member.token, 'TRX');
  await fund(e2e.server, op, 'TRX', trx.address, '1234.5');
});

describe('screens at the money moments', () => {
  it("the footer shows the operator's company details from configuration", async () => {
    const { context, page, errors } = await e2e.mobilePage();
    await page.goto('/');
    for (const lang of LANGS) {
      await inLanguage(page, lang);
      await page.getByTestId('company-details').waitFor();
      expect(await page.getByTestId('company-name').textContent()).toBe('(주)코인마켓');
      expect(await page.getByTestId('company-vaspNo').textContent()).toBe('2024-001');
      await page.getByTestId('company-details').scrollIntoViewIfNeeded();
      await page.screenshot({
        path: join(SCREENSHOT_DIR, `${lang}-footer-company.png`),
        animations: 'disabled',
      });
    }
    await inLanguage(page, 'kr');
    const kr = (await page.getByTestId('company-details').textContent()) ?? '';
    expect(kr).toContain('가상자산사업자 신고번호');
    expect(kr).toContain('사업자등록번호');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the sell form shows balance, market price and total; errors sit at their field; the receipt and lists speak as a seller', async () => {
    const { context, page, errors } = await e2e.mobilePage();
    await uiLogin(page, member);
    await inLanguage(page, 'kr');
    await page.goto('/sell');
    await page.getByTestId('sell-coin-ETH').click();
    await expect.poll(() => page.getByTestId('sell-available').textContent()).toBe('보유 0.5000 ETH');
    await expect
      .poll(() => page.getByTestId('sell-market').textContent())
      .toMatch(/^시세 [\d,]+원 \(참고\)$/);
    await page.getByTestId('sell-max').fill('0.4');
    await page.getByTestId('sell-price').fill('5000000');
    await page.getByText('최대 수량을 모두 팔면 2,000,000원').waitFor();

    // A missing field: the message is next to the field, and the field is brought into view.
    await page.getByTestId('sell-account').fill('');
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.getByTestId('sell-submit').click();
    const minField = page.getByTestId('sell-min');
    await expect.poll(() => minField.getAttribute('aria-invalid')).toBe('true');
    await expect
      .poll(() =>
        minField.evaluate(
          (el) => el.getBoundingClientRect().top > 0 && el.getBoundingClientRect().bottom < 844,
        ),
      )
      .toBe(true);
    for (const lang of LANGS) {
      await inLanguage(page, lang);
      await page.getByTestId('sell-coin-ETH').click();
      await page.getByTestId('sell-max').fill('0.4');
      await page.getByTestId('sell-price').fill('5000000');
      await page.getByTestId('sell-market').filter({ hasText: /\d/ }).waitFor();
      await screenshot(page, 'sell-form', lang);
    }
    await inLanguage(page, 'kr');
    await page.getByTestId('sell-coin-ETH').click();
    await page.getByTestId('sell-min').fill('0.1');
    await page.getByTestId('sell-max').fill('0.4');
    await page.getByTestId('sell-price').fill('5000000');
    await page.getByTestId('sell-bank').selectOption('신한은행');
    await page.getByTestId('sell-account').fill('11012345678');
    await page.getByTestId('sell-submit').click();
    await page.getByTestId('sell-review').waitFor();
    await page.getByTestId('sell-password').fill(member.password);
    await page.getByTestId('sell-confirm').click();
    await page.waitForURL((u) => u.pathname === '/request_successfully');
    expect(await page.getByTestId('receipt-review').textContent()).toContain(
      '판매 요청됨: 운영자 검토를 기다리고 있어요.',
    );
    expect(await page.getByTestId('receipt-review').textContent()).toContain('1시간');
    await screenshot(page, 'sell-receipt', 'kr');

    await page.goto('/myinfo');
    await page.getByTestId('tab-sellRegister').click();
    await expect.poll(() => page.getByTestId('status-badge').first().textContent()).toBe('판매 요청됨');

    // The trade list keeps coin and sort in the URL across a purchase and back, and for the session.
    await approvePending(e2e.server, op);
    await page.goto('/transaction?coin=eth&sort=PRICE_DESC');
    await expect.poll(() => page.getByTestId('coin-tab-ETH').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('sort').inputValue()).toBe('PRICE_DESC');
    await page.getByTestId('coin-tab-TRX').click();
    await expect.poll(() => new URL(page.url()).search).toBe('?coin=trx&sort=PRICE_DESC');
    await page.getByTestId('coin-tab-ETH').click();
    await page.getByTestId('buy-instant').first().click();
    await page.waitForURL((u) => u.pathname === '/purchase');
    await page.goBack();
    await page.waitForURL((u) => u.pathname === '/transaction');
    expect(new URL(page.url()).search).toBe('?coin=eth&sort=PRICE_DESC');
    await page.goto('/transaction');
    await expect.poll(() => page.getByTestId('coin-tab-ETH').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('sort').inputValue()).toBe('PRICE_DESC');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('wallets show the won value of each holding and the total; a withdrawal address is checked at the field', async () => {
    const { context, page, errors } = await e2e.mobilePage();
    await uiLogin(page, member);
    const prices = (
      await e2e.server.t.call<{ prices: { coin: string; krw: number }[] }>('GET', '/api/v1/prices')
    ).body.returnData.prices;
    const krw = (c: string) => prices.find((p) => p.coin === c)?.krw ?? 0;
    const ethWon = won('0.5', krw('ETH'));
    const trxWon = won('1234.5', krw('TRX'));
    const total = (BigInt(ethWon.replaceAll(',', '')) + BigInt(trxWon.replaceAll(',', ''))).toLocaleString(
      'en-US',
    );

    await page.goto('/myinfo');
    await page.getByTestId('tab-wallet').click();
    const eth = page.locator('[data-testid="wallet-item"][data-coin="ETH"]');
    await expect.poll(() => eth.getByTestId('wallet-item-won').textContent()).toBe(`≈ ${ethWon} KRW`);
    await expect.poll(() => page.getByTestId('wallets-total-won').textContent()).toBe(`≈ ${total} KRW`);
    for (const lang of LANGS) {
      await inLanguage(page, lang);
      await page.getByTestId('tab-wallet').click();
      await page.getByTestId('wallets-total-won').waitFor();
      await expect.poll(() => page.getByTestId('wallets-total-won').textContent()).toContain(total);
      await screenshot(page, 'wallets-won', lang);
    }
    await inLanguage(page, 'kr');
    await page.getByTestId('tab-wallet').click();
    await expect.poll(() => eth.getByTestId('wallet-item-won').textContent()).toBe(`≈ ${ethWon}원`);

    await eth.getByTestId('wallet-send').click();
    await page.getByTestId('wallet-won').waitFor();
    await expect.poll(() => page.getByTestId('wallet-won').textContent()).toBe(`≈ ${ethWon}원`);
    await page.getByTestId('withdraw-amount').fill('0.1');
    await page.getByTestId('withdraw-address').fill('TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7');
    await page.getByText('ETH 주소 형식이 아니에요. 주소를 다시 확인해주세요.').waitFor();
    expect(await page.getByTestId('withdraw-submit').isDisabled()).toBe(true);
    for (const lang of LANGS) {
      await inLanguage(page, lang);
      await page.getByTestId('withdraw-address').fill('0x52908400098527886E0F7030069857D2E4169E');
      await page.getByTestId('withdraw-amount').fill('0.1');
      await page.locator('[role="alert"]').first().waitFor();
      await screenshot(page, 'withdraw-address-invalid', lang);
    }
    await page.getByTestId('withdraw-address').fill('0x52908400098527886E0F7030069857D2E4169EE7');
    await expect.poll(() => page.getByTestId('withdraw-submit').isDisabled()).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });
});
