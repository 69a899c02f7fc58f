import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { receiveQty } from '@p2p/contract';
import type { Page, Route } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOT_DIR } from './support/browser.ts';
import { e2eSuite } from './support/suite.ts';
import {
  apiOk,
  approvePending,
  createWallet,
  fund,
  type Member,
  operatorToken,
  signedUpMember,
  switchLanguage,
  uiLogin,
  walletOf,
} from './trade-kit.ts';

/**
 * The trade detail screens show the shapes of their cards while they load, not a bare
 * 로딩 중..., and the content takes the same room when it arrives (no layout jump).
 */
const e2e = e2eSuite();
let seller: Member;
let buyer: Member;
let orderId: number;
const PRICE = 10_000_000;

beforeAll(async () => {
  const op = await operatorToken(e2e.server);
  seller = await signedUpMember(e2e.server);
  buyer = await signedUpMember(e2e.server);
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
  await apiOk(e2e.server, 'POST', '/sms/request', buyer.token, { phone: buyer.phoneE164 });
  await apiOk(e2e.server, 'POST', '/sms/verify', buyer.token, {
    phone: buyer.phoneE164,
    code: await e2e.server.smsCode(buyer.phoneE164),
  });
  const listings = await apiOk<{ list: { listingId: number }[] }>(e2e.server, 'GET', '/api/v1/sell-listings');
  const wallet = await walletOf(e2e.server, buyer.token, 'BTC');
  const krw = 100_000;
  orderId = (
    await apiOk<{ orderId: number }>(e2e.server, 'POST', '/buy-orders', buyer.token, {
      listingId: listings.list[0]?.listingId,
      krwAmount: krw,
      requestQty: receiveQty(krw, PRICE),
      destType: 'INTERNAL',
      destWalletId: wallet.id,
    })
  ).orderId;
});

/** Heights of main's children and where main ends. */
function layout(p: Page) {
  return p.evaluate(() => {
    const main = document.querySelector('main');
    const sk = document.querySelector('[data-testid="detail-skeleton"]');
    const blocks = [...(sk ? sk.children : (main?.children ?? []))].filter((el) => el.tagName !== 'SPAN');
    return {
      heights: blocks.map((el) => Math.round(el.getBoundingClientRect().height)),
      bottom: Math.round(main?.getBoundingClientRect().bottom ?? 0),
    };
  });
}

/** Holds the requests whose path matches until `release` is called. */
async function hold(p: Page, match: (u: URL) => boolean) {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((r) => {
    open = r;
  });
  await p.route(match, async (route: Route) => {
    await gate;
    await route.continue().catch(() => undefined);
  });
  return {
    release: async () => {
      open();
      await p.unroute(match);
    },
  };
}

async function shoot(p: Page, name: string, lang: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await p.screenshot({ path: join(SCREENSHOT_DIR, `${lang}-${name}.png`), animations: 'disabled' });
}

const cases = [
  {
    name: 'purchase',
    who: () => buyer,
    path: () => `/my/buy-history/${orderId}`,
    open: (p: Page) => p.goto(`/view_details?id=${orderId}&type=purchase`),
    ready: 'status-panel',
  },
  {
    name: 'sell-history',
    who: () => seller,
    path: () => `/my/sell-history/${orderId}`,
    open: (p: Page) => p.goto(`/view_details?id=${orderId}&type=sell-history`),
    ready: 'status-panel',
  },
];

describe('trade detail skeletons', () => {
  for (const c of cases) {
    it(`${c.name}: card shapes while loading, the same room when loaded`, async () => {
      const { context, page, errors } = await e2e.mobilePage();
      await uiLogin(page, c.who());
      for (const lang of ['en', 'kr'] as const) {
        await switchLanguage(page, lang);
        const held = await hold(page, (u) => u.pathname === c.path());
        await c.open(page);
        await page.getByTestId('detail-skeleton').waitFor();
        // the loading word is left to screen readers; the eye sees the card shapes
        const seen = await page.evaluate(() => {
          const main = document.querySelector('main')?.cloneNode(true);
          if (!(main instanceof HTMLElement)) return '';
          for (const el of main.querySelectorAll('.visually-hidden')) el.remove();
          return main.textContent ?? '';
        });
        expect(seen).not.toContain(lang === 'kr' ? '로딩 중' : 'Loading');
        expect(await page.getByTestId('skeleton-card').count()).toBeGreaterThanOrEqual(2);
        const before = await layout(page);
        await shoot(page, `skeleton-${c.name}`, lang);
        await held.release();
        await page.getByTestId(c.ready).waitFor();
        await page.waitForLoadState('networkidle');
        const after = await layout(page);
        await shoot(page, `loaded-${c.name}`, lang);
        // the status panel replaces its placeholder in place, and the page ends where it did (±8 %)
        if (lang === 'en')
          expect(Math.abs((after.heights[0] ?? 0) - (before.heights[0] ?? 0))).toBeLessThanOrEqual(2);
        expect(
          Math.abs(after.bottom - before.bottom) / after.bottom,
          JSON.stringify({ before, after }),
        ).toBeLessThan(0.08);
      }
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
