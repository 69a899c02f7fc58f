import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2eSuite } from './support/suite.ts';
import { apiOk, createWallet, fund, operatorToken, signedUpMember, uiLogin } from './trade-kit.ts';

/**
 * The event stream ends when its access token expires (DECISIONS §21) and the web app reconnects with a fresh
 * token, refreshing first: with 6-second access tokens, the browser's next GET /api/v1/events after the first
 * one's token ran out carries another token and is answered 200, no stream request is refused with 401 on the
 * way, and a notification caused afterwards still reaches the header badge without a reload (the badge has
 * no polling of its own). The test's own API calls sign in again for each use: its tokens expire too.
 */

const TTL_SEC = 6;
const e2e = e2eSuite({ ACCESS_TOKEN_TTL_SEC: String(TTL_SEC) });

/** A token of `m` signed in just now (a test's token outlives TTL_SEC only by being made again). */
const freshToken = async (m: { loginId: string; password: string }) =>
  (
    await apiOk<{ accessToken: string }>(e2e.server, 'POST', '/api/v1/auth/login', undefined, {
      loginId: m.loginId,
      password: m.password,
    })
  ).accessToken;

const badge = (page: Page) => page.getByTestId('header-unread').locator('[aria-hidden="true"]');

interface StreamRequest {
  authorization: string;
  status: number | null;
}

describe('the web app’s event stream across an access-token expiry', () => {
  it('reconnects with a refreshed token, never with the expired one, and keeps delivering live updates', async () => {
    const seller = await signedUpMember(e2e.server);
    const wallet = await createWallet(e2e.server, await freshToken(seller), 'BTC');
    await fund(e2e.server, await operatorToken(e2e.server), 'BTC', wallet.address, '1');

    const { page, context, errors } = await e2e.mobilePage();
    // under automation the app streams only when asked to (lib/event-stream.ts)
    await context.addInitScript(() => window.localStorage.setItem('liveEvents', 'on'));
    const streams: StreamRequest[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname !== '/api/v1/events') return;
      const entry: StreamRequest = { authorization: r.headers().authorization ?? '', status: null };
      streams.push(entry);
      void r.response().then((res) => {
        entry.status = res?.status() ?? null;
      });
    });
    try {
      await uiLogin(page, seller);
      await expect.poll(() => streams[0]?.status, { timeout: 15_000 }).toBe(200);
      const first = streams[0]?.authorization ?? '';
      expect(first).toMatch(/^Bearer .+/);

      // The first token expires: the server ends that stream and the app opens the next one with a new token.
      await expect
        .poll(() => streams.some((s) => s.status === 200 && s.authorization !== first), {
          timeout: TTL_SEC * 1000 + 20_000,
        })
        .toBe(true);
      expect(streams.filter((s) => s.status === 401)).toEqual([]);
      expect(streams.every((s) => /^Bearer [\w-]+\.[\w-]+\.[\w-]+$/.test(s.authorization))).toBe(true);

      // Live updates still arrive: the approval of the seller's new listing raises the badge.
      expect(await page.getByTestId('header-unread').count()).toBe(0);
      const sellerToken = await freshToken(seller);
      const { listingId } = await apiOk<{ listingId: number }>(
        e2e.server,
        'POST',
        '/api/v1/sell-listings',
        sellerToken,
        {
          walletId: wallet.id,
          minQty: '0.001',
          maxQty: '0.5',
          unitPriceKrw: 10_000_000,
          bankName: '신한은행',
          accountNo: '11012345678',
          stepUp: { password: seller.password },
        },
      );
      await apiOk(
        e2e.server,
        'POST',
        `/ops/api/v1/listings/${listingId}/approve`,
        await operatorToken(e2e.server),
      );
      await expect.poll(() => badge(page).textContent(), { timeout: 20_000 }).toBe('1');
      expect(streams.filter((s) => s.status === 401)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
