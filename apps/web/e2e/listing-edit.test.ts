import { toUnits } from '@p2p/contract';
import { describe, expect, it } from 'vitest';
import { escrow, openListing, operator, trader } from '../../api/src/modules/orders/test-kit.ts';
import { screenshot, startInKorean } from './support/browser.ts';
import { e2eSuite } from './support/suite.ts';
import { expectToast, type Member, shootNow, uiLogin } from './trade-kit.ts';

const e2e = e2eSuite();

/**
 * A seller's listings, walked at 390x844: create from the 판매등록 tab, the one-listing-per-coin rule said
 * before the form is filled (with a link to the listing), price and quantities edited with the password
 * (PATCH /api/v1/sell-listings/{id}), a price far from the market sent back to review, and an ended listing
 * reading 판매 종료. The fake CoinGecko says 1 BTC = 140,123,457 won.
 */
describe('listings: create, one per coin, edit, ended', () => {
  it('walks the seller from the tab to an edited listing and an ended one', async () => {
    const { t } = e2e.server;
    const op = await operator(t);
    const seller = await trader(t, 'BTC', '2');
    const id = await openListing(t, seller, op, { minQty: '0.01', maxQty: '1', unitPriceKrw: 140_000_000 });

    const { context, page, errors } = await e2e.mobilePage();
    await startInKorean(page);
    await uiLogin(page, seller as unknown as Member);
    await page.getByTestId('header-mypage').click();
    await page.getByTestId('tab-sellRegister').click();
    await page.getByTestId('sell-register-create').click();
    await page.waitForURL((u) => u.pathname === '/sell');

    // BTC is already on sale: said at once, with the way to that listing; the form cannot be sent.
    await page.getByTestId('sell-coin-BTC').click();
    const existing = page.getByTestId('sell-existing');
    await existing.waitFor();
    expect(await existing.textContent()).toContain(
      '이미 BTC를 판매하고 있어요. 코인마다 판매 등록은 하나만 할 수 있어요.',
    );
    expect(await page.getByTestId('sell-submit').isDisabled()).toBe(true);
    await screenshot(page, 'listing-one-per-coin', 'kr');
    await page.getByTestId('sell-existing-link').click();
    await page.waitForURL((u) => u.pathname === '/view_details');

    // Edit within 10% of the market: stays on sale; the escrow follows the new maximum.
    await page.getByTestId('detail-edit').click();
    const sheet = page.getByTestId('listing-edit');
    await sheet.waitFor();
    await page.getByTestId('edit-max').fill('1.5');
    await page.getByTestId('edit-price').fill('145000000');
    expect(await page.getByTestId('edit-review-warning').count()).toBe(0);
    await page.getByTestId('edit-password').fill(seller.password);
    await page.waitForTimeout(350);
    await shootNow(page, 'listing-edit');
    await page.getByTestId('edit-confirm').click();
    await expectToast(page, '판매 조건을 수정했어요.');
    await expect.poll(() => page.getByTestId('detail-card').textContent()).toContain('0.01 - 1.5 BTC');
    expect(await page.getByTestId('status-badge').getAttribute('data-status')).toBe('OPEN');
    expect(await escrow(t, seller.id, 'BTC')).toBe(toUnits('1.5'));

    // 170,000,000 is more than 10% above the market: the sheet says so first, then the listing waits for review.
    await page.getByTestId('detail-edit').click();
    await page.getByTestId('edit-price').fill('170000000');
    await page.getByTestId('edit-review-warning').waitFor();
    await page.getByTestId('edit-password').fill(seller.password);
    await page.getByTestId('edit-confirm').click();
    await expectToast(page, '운영자 확인 후 다시 판매돼요.');
    await expect
      .poll(() => page.getByTestId('status-badge').getAttribute('data-status'))
      .toBe('PENDING_REVIEW');

    // The seller ends it: the registration reads 판매 종료, not "0.01 - 0 BTC".
    await page.getByTestId('detail-cancel').click();
    await page.getByTestId('confirm-yes').click();
    await page.waitForURL((u) => u.pathname === '/myinfo');
    await page.getByTestId('tab-sellRegister').click();
    const row = page.locator(`[data-testid="history-sell-register"][data-id="${id}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain('판매 종료');
    expect(await row.textContent()).not.toContain('- 0 BTC');
    await screenshot(page, 'listing-ended', 'kr');

    await page.evaluate(() => localStorage.setItem('language', 'en'));
    await page.reload();
    await page.getByTestId('tab-sellRegister').click();
    await expect
      .poll(() => page.locator(`[data-testid="history-sell-register"][data-id="${id}"]`).textContent())
      .toContain('Sale ended');
    await screenshot(page, 'listing-ended', 'en');
    expect(errors).toEqual([]);
    await t.assertLedger();
    await context.close();
  });
});
