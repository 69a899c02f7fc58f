import { receiveQty } from '@p2p/contract';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2eSuite } from './support/suite.ts';
import {
  apiOk,
  approvePending,
  createWallet,
  fund,
  type Member,
  operatorToken,
  signedUpMember,
  uiLogin,
  walletOf,
} from './trade-kit.ts';

/**
 * Live updates in the browser (DECISIONS §12): the seller's header badge counts notifications
 * caused by the buyer's API calls without a reload (the unread count has no polling: only the event
 * stream refreshes it), /notifications lists them and clears the badge, and the SMS switch of /account
 * is stored.
 */

const PRICE = 10_000_000;
const e2e = e2eSuite();

async function market(): Promise<{ seller: Member; buyer: Member }> {
  const op = await operatorToken(e2e.server);
  const seller = await signedUpMember(e2e.server);
  const buyer = await signedUpMember(e2e.server);
  const w = await createWallet(e2e.server, seller.token, 'BTC');
  await fund(e2e.server, op, 'BTC', w.address, '1');
  await apiOk(e2e.server, 'POST', '/api/v1/sell-listings', seller.token, {
    walletId: w.id,
    minQty: '0.001',
    maxQty: '0.5',
    unitPriceKrw: PRICE,
    bankName: '신한은행',
    accountNo: '11012345678',
    stepUp: { password: seller.password },
  });
  await approvePending(e2e.server, op);
  await createWallet(e2e.server, buyer.token, 'BTC');
  return { seller, buyer };
}

async function order(buyer: Member, krw: number): Promise<number> {
  await apiOk(e2e.server, 'POST', '/sms/request', buyer.token, { phone: buyer.phoneE164 });
  await apiOk(e2e.server, 'POST', '/sms/verify', buyer.token, {
    phone: buyer.phoneE164,
    code: await e2e.server.smsCode(buyer.phoneE164),
  });
  const listings = await apiOk<{ list: { listingId: number }[] }>(e2e.server, 'GET', '/api/v1/sell-listings');
  const wallet = await walletOf(e2e.server, buyer.token, 'BTC');
  const o = await apiOk<{ orderId: number }>(e2e.server, 'POST', '/buy-orders', buyer.token, {
    listingId: listings.list[0]?.listingId,
    krwAmount: krw,
    requestQty: receiveQty(krw, PRICE),
    destType: 'INTERNAL',
    destWalletId: wallet.id,
  });
  return o.orderId;
}

const badge = (page: Page) => page.getByTestId('header-unread').locator('[aria-hidden="true"]');

describe('live updates in the browser', () => {
  it('counts the seller’s notifications in the header without a reload, lists them and stores the SMS switch', async () => {
    const { seller, buyer } = await market();
    const { page, context, errors } = await e2e.mobilePage();
    // under automation the app streams only when asked to (use-live-events.ts: networkidle waits elsewhere)
    await context.addInitScript(() => window.localStorage.setItem('liveEvents', 'on'));
    try {
      await uiLogin(page, seller);
      // LISTING_APPROVED is already there
      await expect.poll(() => badge(page).textContent(), { timeout: 15_000 }).toBe('1');
      const navigations: string[] = [];
      page.on('framenavigated', (f) => {
        if (f === page.mainFrame()) navigations.push(f.url());
      });

      const orderId = await order(buyer, 1_000_000);
      await expect.poll(() => badge(page).textContent(), { timeout: 15_000 }).toBe('2');
      await apiOk(e2e.server, 'POST', `/buy-orders/${orderId}/paid`, buyer.token);
      await expect.poll(() => badge(page).textContent(), { timeout: 15_000 }).toBe('3');
      expect(navigations).toEqual([]);

      await page.getByTestId('header-notifications').click();
      await page.waitForURL((u) => u.pathname === '/notifications');
      const items = page.getByTestId('notification');
      await expect.poll(() => items.count()).toBe(3);
      expect(await items.first().textContent()).toContain(`#${orderId}`);
      // what was shown is read: the badge is gone on the way back
      await page.goto('/');
      await page.getByTestId('header-notifications').waitFor();
      await expect.poll(() => page.getByTestId('header-unread').count()).toBe(0);

      await page.goto('/account');
      const sms = page.getByTestId('sms-alerts');
      await sms.waitFor();
      await expect.poll(() => sms.isEnabled()).toBe(true);
      expect(await sms.isChecked()).toBe(true);
      await sms.click();
      await expect
        .poll(
          async () =>
            (
              await apiOk<{ smsAlerts: boolean }>(
                e2e.server,
                'GET',
                '/api/v1/notifications/settings',
                seller.token,
              )
            ).smsAlerts,
        )
        .toBe(false);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
