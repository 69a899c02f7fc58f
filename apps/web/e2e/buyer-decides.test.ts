import { describe, expect, it } from 'vitest';
import { openListing, operator, trader } from '../../api/src/modules/orders/test-kit.ts';
import { screenshot, startInKorean } from './support/browser.ts';
import { signupViaApi } from './support/flows.ts';
import { e2eSuite } from './support/suite.ts';
import { type Member, uiLogin } from './trade-kit.ts';

const e2e = e2eSuite();

describe('a buyer decides before ordering', () => {
  it('reads the won range, the 950만원 cap, what the purchase types mean and the 30-minute window', async () => {
    const { t } = e2e.server;
    const seller = await trader(t, 'BTC', '2');
    const op = await operator(t);
    // 1 BTC at 50,000,000 won: the listing could take 50,000,000 won, one order only 9,500,000.
    await openListing(t, seller, op, { minQty: '0.01', maxQty: '1', unitPriceKrw: 50_000_000 });
    const buyer = await signupViaApi(e2e.server);

    const { context, page, errors } = await e2e.mobilePage();
    await startInKorean(page);
    await uiLogin(page, buyer as Member);
    await page.getByTestId('nav-trade').click();
    const card = page.getByTestId('listing-card').first();
    await card.waitFor();
    expect(await card.getByTestId('listing-krw-range').textContent()).toBe('500,000원 ~ 9,500,000원');
    expect(await card.getByTestId('listing-cap').textContent()).toContain('950만원');

    const help = page.getByTestId('purchase-types-help');
    await help.getByText('즉시구매와 예약구매는 어떻게 달라요?').click();
    await expect.poll(() => help.getByText('30분 안에 판매자 계좌로 입금해요').isVisible()).toBe(true);
    expect(await help.textContent()).toContain('입금할 날짜와 시간');
    await screenshot(page, 'buyer-list', 'kr');

    await card.getByTestId('buy-instant').click();
    await page.getByTestId('purchase-amount').waitFor();
    expect(await page.getByTestId('purchase-type-meaning').textContent()).toContain('30분 안에');
    expect(await page.getByTestId('receive-note').textContent()).toBe(
      '500,000원부터 9,500,000원까지 살 수 있어요 (1회 최대 950만원).',
    );
    expect(await page.getByTestId('payment-window').textContent()).toContain('30분 안에 입금해야 해요');
    await screenshot(page, 'buyer-purchase', 'kr');

    // Past the cap the field says so, with the number the card already gave.
    await page.getByTestId('purchase-amount').fill('10000000');
    await page.getByText('1회 최대 구매 금액은 950만원까지').first().waitFor();
    expect(await page.getByTestId('purchase-submit').isDisabled()).toBe(true);

    await page.evaluate(() => localStorage.setItem('language', 'en'));
    await page.goto('/transaction');
    await page.getByTestId('listing-card').first().waitFor();
    expect(await page.getByTestId('listing-krw-range').first().textContent()).toBe('500,000 - 9,500,000 KRW');
    await page.getByTestId('purchase-types-help').getByText('Instant or reserved purchase?').click();
    await screenshot(page, 'buyer-list', 'en');
    expect(errors).toEqual([]);
    await context.close();
  });
});
