import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiMember,
  apiLogin,
  apiMember,
  apiOk,
  apiWallet,
  consoleLogin,
  newPage,
  OPERATOR,
  startOpsServer,
} from './ops-kit.ts';
import { waitForPath } from './support/flows.ts';
import { e2eSuite } from './support/suite.ts';

/**
 * The operator console's queues update live (DECISIONS §12): with the console open, a member's
 * new sell listing raises the overview's pending-review count and appears in the review queue without a
 * reload. The listings queue has no polling of its own, so only the event stream can bring the row.
 * No networkidle waits here: the stream is a request that stays open.
 */
describe('operator console live updates', () => {
  const e2e = e2eSuite(startOpsServer);
  let opsToken: string;

  beforeAll(async () => {
    opsToken = await apiLogin(e2e.server, OPERATOR.loginId, OPERATOR.password);
  }, 300_000);

  /** A member with 2 BTC (one listing per member and coin): its wallet id. */
  const seller = async (): Promise<{ member: ApiMember; walletId: number }> => {
    const member = await apiMember(e2e.server);
    const wallet = await apiWallet(e2e.server, member.token, 'BTC');
    await apiOk(e2e.server, 'POST', '/ops/api/v1/deposits', opsToken, {
      coinCode: 'BTC',
      address: wallet.address,
      amount: '2',
      txid: `ops-live-${member.id}`,
    });
    return { member, walletId: wallet.id };
  };

  /** The member puts a listing up for review through the API (nothing in the operator's browser). */
  const sellListing = async (s: { member: ApiMember; walletId: number }) =>
    (
      await apiOk<{ listingId: number }>(e2e.server, 'POST', '/api/v1/sell-listings', s.member.token, {
        walletId: s.walletId,
        minQty: '0.01',
        maxQty: '0.5',
        unitPriceKrw: 100_000_000,
        bankName: 'KB국민은행',
        accountNo: '123456789012',
        stepUp: { password: s.member.password },
      })
    ).listingId;

  const cardValue = (page: Page, key: string) =>
    page.getByTestId(`summary-${key}`).locator('span').last().textContent();

  it('counts and lists a new listing to review without a reload', async () => {
    const { page, context, errors } = await newPage(e2e.browser, e2e.server.baseUrl);
    // under automation the console streams only when asked to (lib/event-stream.ts)
    await context.addInitScript(() => window.localStorage.setItem('liveEvents', 'on'));
    const [first, second] = [await seller(), await seller()];
    try {
      const streamed = page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/api/v1/events' && r.status() === 200,
      );
      await consoleLogin(page, OPERATOR);
      await waitForPath(page, '/ops');
      const stream = await streamed;
      // the operator's own token, in the Authorization header
      expect(await stream.request().headerValue('authorization')).toMatch(/^Bearer .+/);
      await expect.poll(() => cardValue(page, 'pendingListings')).toMatch(/^\d+$/);
      const before = Number(await cardValue(page, 'pendingListings'));
      const navigations: string[] = [];
      page.on('framenavigated', (f) => {
        if (f === page.mainFrame()) navigations.push(f.url());
      });

      await sellListing(first);
      await expect
        .poll(() => cardValue(page, 'pendingListings'), { timeout: 20_000 })
        .toBe(String(before + 1));
      await expect.poll(() => page.getByTestId('ops-nav-listings').textContent()).toContain(`${before + 1}`);

      // the review queue (pending first) takes the next one in while it is open
      await page.getByTestId('ops-nav-listings').click();
      await waitForPath(page, '/ops/listings');
      const navigated = navigations.length;
      const rows = page.locator('[data-testid^="listing-row-"]');
      await expect.poll(() => rows.count()).toBe(before + 1);
      const listed = await sellListing(second);
      await page.getByTestId(`listing-row-${listed}`).waitFor({ timeout: 20_000 });
      expect(await rows.count()).toBe(before + 2);
      await expect.poll(() => page.getByTestId('ops-nav-listings').textContent()).toContain(`${before + 2}`);
      expect(navigations.length).toBe(navigated);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
