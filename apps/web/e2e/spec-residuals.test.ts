import { describe, expect, it } from 'vitest';
import {
  BTC_PRICE,
  btcMarket,
  buyBody,
  operator,
  placeOrder,
} from '../../api/src/modules/orders/test-kit.ts';
import { screenshot, startInKorean } from './support/browser.ts';
import { e2eSuite } from './support/suite.ts';
import { type Member, shootNow, uiLogin } from './trade-kit.ts';

const e2e = e2eSuite();

/** SPEC items an audit found the app short of (SPEC §2, §4, §8, §9), walked as a member would. */
describe('SPEC residuals', () => {
  it('coin tabs, quick-add labels, the 30-minute time list, balances, the cancel confirm and a fresh /account', async () => {
    const { t } = e2e.server;
    const op = await operator(t);
    const { buyer, id } = await btcMarket(t, op);
    const placed = await placeOrder<{ orderId: number }>(
      t,
      buyer,
      buyBody(id, 1_000_000, BTC_PRICE, buyer.wallet.id),
    );
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const orderId = placed.body.returnData.orderId;

    const { context, page, errors } = await e2e.mobilePage();
    await startInKorean(page);
    await uiLogin(page, buyer as unknown as Member);

    // Coin tabs in SPEC §2's order.
    await page.getByTestId('nav-trade').click();
    await page.getByTestId('listing-card').first().waitFor();
    const tabs = await page.getByTestId('coin-tab').getByRole('button').allTextContents();
    expect(tabs).toEqual(['전체', 'BTC', 'ETH', 'TRX', 'XRP']);

    // Quick-add buttons read 1만 .. 100만 (SPEC §2) and say what they add to a screen reader.
    await page.getByTestId('buy-reserve').first().click();
    await page.getByTestId('quick-10000').waitFor();
    const quick = [];
    for (const a of [10_000, 50_000, 100_000, 500_000, 1_000_000]) {
      quick.push(await page.getByTestId(`quick-${a}`).textContent());
    }
    expect(quick).toEqual(['1만', '5만', '10만', '50만', '100만']);
    await page.getByRole('button', { name: '50,000원 더하기' }).click();
    expect(await page.getByTestId('purchase-amount').inputValue()).toBe('50,000');

    // The reservation's time list steps 30 minutes unless the member asks for 15.
    const tomorrow = await page.getByTestId('reserve-date').getAttribute('min');
    await page.getByTestId('reserve-date').fill(nextDay(tomorrow ?? ''));
    const coarse = await page.getByTestId('reserve-time').locator('option:not([value=""])').allTextContents();
    expect(coarse).toHaveLength(48);
    expect(coarse.every((v) => /:(00|30)$/.test(v))).toBe(true);
    await page.getByTestId('reserve-fine').check();
    const fine = await page.getByTestId('reserve-time').locator('option:not([value=""])').allTextContents();
    expect(fine).toContain('10:15');
    await screenshot(page, 'residuals-reserve', 'kr');

    // Wallet balances with at least 4 decimals.
    await page.goto('/');
    await page.getByTestId('nav-wallet').click();
    await page.getByTestId('tabpanel-wallet').waitFor();
    await expect.poll(() => page.getByTestId('wallet-item-balance').first().textContent()).toBe('0.0000 BTC');

    // Cancelling an order: the warning-icon confirm with 예 / 아니오 (SPEC §2).
    await page.goto(`/view_details?id=${orderId}&type=purchase`);
    await page.getByTestId('action-cancel').click();
    const dialog = page.getByTestId('cancel-dialog');
    await dialog.waitFor();
    expect(await dialog.getByTestId('warning-icon').count()).toBe(1);
    expect(await page.getByTestId('confirm-yes').textContent()).toBe('예');
    expect(await page.getByTestId('confirm-no').textContent()).toBe('아니오');
    await page.waitForTimeout(250);
    await shootNow(page, 'residuals-cancel-confirm');
    await page.getByTestId('confirm-no').click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('action-cancel').click();
    await page.getByTestId('confirm-yes').click();
    await expect
      .poll(
        async () =>
          (await t.call<{ status: string }>('GET', `/my/buy-history/${orderId}`, { token: buyer.token })).body
            .returnData.status,
      )
      .toBe('CANCELED');

    // /account reads the profile the server holds now, even right after it was shown.
    await page.getByTestId('header-mypage').click();
    await page.getByTestId('to-account').click();
    await expect.poll(() => page.getByTestId('acc-nickname').textContent()).toBe(buyer.nickname);
    await t.app.deps.db
      .updateTable('members')
      .set({ nickname: 'renamed1' })
      .where('id', '=', buyer.id)
      .execute();
    await page.getByTestId('header-mypage').click();
    await page.getByTestId('to-account').click();
    await expect.poll(() => page.getByTestId('acc-nickname').textContent()).toBe('renamed1');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('gives up restoring the session after 5 s and offers a retry instead of spinning on', async () => {
    const { t } = e2e.server;
    const op = await operator(t);
    const { buyer } = await btcMarket(t, op);
    const { context, page, errors } = await e2e.mobilePage();
    await startInKorean(page);
    await uiLogin(page, buyer as unknown as Member);
    // A new tab without the stored profile, and a profile call that never answers.
    await page.evaluate(() => localStorage.removeItem('userInfo'));
    // A profile call that never answers: the app does not spin on.
    await page.route(
      (u) => u.pathname === '/my',
      () => undefined,
    );
    await page.goto('/account');
    await page.getByText('인증 확인 중...').waitFor();
    await page.getByTestId('profile-failed').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('profile-retry').isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});

/** The day after a yyyy-MM-dd (a whole day of slots, unlike today's remaining ones). */
function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
