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

/**
 * Notifications say who, what and how much (DECISIONS §12), show what is new with a badge in the header,
 * and an order's state change reaches the other party's open chat without a reload.
 */
describe('notifications and live system events', () => {
  it('names the buyer, the coins and the won; marks the new ones; the chat shows the reject live', async () => {
    const { t } = e2e.server;
    const op = await operator(t);
    const { seller, buyer, id } = await btcMarket(t, op);

    // The buyer watches the order's chat while the seller acts elsewhere.
    const b = await e2e.mobilePage();
    await startInKorean(b.page);
    await b.context.addInitScript(() => window.localStorage.setItem('liveEvents', 'on'));
    const s = await e2e.mobilePage();
    await startInKorean(s.page);
    await s.context.addInitScript(() => window.localStorage.setItem('liveEvents', 'on'));
    await uiLogin(s.page, seller as unknown as Member);
    const placed = await placeOrder<{ orderId: number }>(
      t,
      buyer,
      buyBody(id, 1_000_000, BTC_PRICE, buyer.wallet.id),
    );
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const orderId = placed.body.returnData.orderId;

    // The seller's header counts the new ones (LISTING_APPROVED and ORDER_REQUESTED).
    const badge = s.page.getByTestId('header-unread').locator('[aria-hidden="true"]');
    await expect.poll(() => badge.textContent(), { timeout: 15_000 }).toBe('2');
    await s.page.getByTestId('header-notifications').click();
    const requested = s.page.locator('[data-testid="notification"][data-kind="ORDER_REQUESTED"]');
    await requested.waitFor();
    expect(await requested.textContent()).toContain(
      `${buyer.nickname}님이 0.02 BTC를 1,000,000원에 사겠다고 요청했어요. (주문 #${orderId})`,
    );
    expect(await requested.getAttribute('data-unread')).toBe('true');
    expect(await requested.getByTestId('notification-new').textContent()).toBe('새 알림');
    const approved = s.page.locator('[data-testid="notification"][data-kind="LISTING_APPROVED"]');
    expect(await approved.textContent()).toContain('BTC 판매 등록(개당 50,000,000원)이 승인되어');
    // dates in the one shared format
    expect(await requested.locator('time').textContent()).toMatch(
      /^\d{1,2}월 \d{1,2}일 \([월화수목금토일]\) \d{2}:\d{2}$/,
    );
    await screenshot(s.page, 'notifications', 'kr');
    // seen is read: the header badge clears
    await expect.poll(() => s.page.getByTestId('header-unread').count()).toBe(0);

    await uiLogin(b.page, buyer as unknown as Member);
    await b.page.goto(`/view_details?id=${orderId}&type=purchase`);
    await b.page.getByTestId('order-chat').waitFor();
    await b.page.locator('[data-testid="chat-system"][data-status="REQUESTED"]').waitFor();
    // The seller rejects on their screen; the buyer's open chat shows it without a reload.
    await s.page.goto(`/view_details?id=${orderId}&type=sell-history`);
    await s.page.getByTestId('action-reject').click();
    await s.page.getByTestId('confirm-yes').click();
    await b.page.locator('[data-testid="chat-system"][data-status="REJECTED"]').waitFor({ timeout: 15_000 });
    await shootNow(b.page, 'chat-live-reject');

    await b.page.goto('/notifications');
    const rejected = b.page.locator('[data-testid="notification"][data-kind="ORDER_REJECTED"]');
    await rejected.waitFor();
    expect(await rejected.textContent()).toContain(
      `${seller.nickname}님이 1,000,000원 구매 요청을 거절했어요. (주문 #${orderId})`,
    );
    await b.page.evaluate(() => localStorage.setItem('language', 'en'));
    await b.page.reload();
    await b.page.locator('[data-testid="notification"][data-kind="ORDER_REJECTED"]').waitFor();
    expect(await b.page.getByTestId('notifications').textContent()).toContain(
      `${seller.nickname} declined your 1,000,000 KRW purchase request.`,
    );
    await screenshot(b.page, 'notifications', 'en');
    expect([...b.errors, ...s.errors]).toEqual([]);
    await b.context.close();
    await s.context.close();
  });
});
