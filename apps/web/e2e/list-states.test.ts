import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOT_DIR, VIEWPORT } from './support/browser.ts';
import { e2eSuite } from './support/suite.ts';
import {
  createWallet,
  fund,
  type Member,
  operatorToken,
  signedUpMember,
  switchLanguage,
  uiLogin,
} from './trade-kit.ts';

/**
 * Lists and forms in the browser: a list whose API fails says so with a toast and a retry where the list
 * would be (never the empty text) and recovers on the tap; the primary button of a long form stays at the
 * bottom of a 390x844 screen and never covers the field being filled.
 */
const e2e = e2eSuite();
let member: Member;
let page: Page;

const FAILURE = {
  status: 500,
  contentType: 'application/json',
  body: '{"returnCode":500,"returnMessage":"INTERNAL_ERROR","returnData":null}',
};

/** The viewport as it is now (sticky parts where the member sees them): <lang>-lists-<name>.png. */
async function shoot(p: Page, name: string, lang: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await p.screenshot({ path: join(SCREENSHOT_DIR, `${lang}-lists-${name}.png`), animations: 'disabled' });
}

beforeAll(async () => {
  member = await signedUpMember(e2e.server);
  const wallet = await createWallet(e2e.server, member.token, 'ETH');
  await fund(e2e.server, await operatorToken(e2e.server), 'ETH', wallet.address, '1.5');
  const opened = await e2e.mobilePage();
  page = opened.page;
  await uiLogin(page, member);
});

interface FailingList {
  name: string;
  /** The request the list makes (matched on the path only). */
  path: string;
  open: (p: Page) => Promise<void>;
  testId: string;
  error: string;
}

const LISTS: FailingList[] = [
  {
    name: 'trade',
    path: '/api/v1/sell-listings',
    open: async (p) => {
      await p.goto('/transaction');
    },
    testId: 'trade-list',
    error: 'Failed to load the listings.',
  },
  {
    name: 'buy-history',
    path: '/my/buy-history',
    open: async (p) => {
      await p.goto('/myinfo');
      await p.getByTestId('tab-purchase').click();
    },
    testId: 'purchase-list',
    error: 'Failed to load the history.',
  },
  {
    name: 'sell-history',
    path: '/my/sell-history',
    open: async (p) => {
      await p.goto('/myinfo');
      await p.getByTestId('tab-sellHistory').click();
    },
    testId: 'sell-history-list',
    error: 'Failed to load the history.',
  },
  {
    name: 'wallet-history',
    path: '/transfer',
    open: async (p) => {
      await p.goto('/myinfo');
      await p.getByTestId('tab-wallet').click();
      await p.locator('[data-testid="wallet-item"][data-coin="ETH"]').getByTestId('wallet-detail').click();
    },
    testId: 'transfer-list',
    error: 'Failed to load the history.',
  },
];

describe('lists that fail to load', () => {
  for (const list of LISTS) {
    it(`${list.name}: a 500 shows a toast and a retry, not the empty state, and the retry recovers`, async () => {
      await switchLanguage(page, 'en');
      const failing = (u: URL) => u.pathname === list.path;
      await page.route(failing, (route) => route.fulfill(FAILURE));
      await list.open(page);
      const box = page.getByTestId(`${list.testId}-error`);
      await box.waitFor();
      expect(await box.textContent()).toContain(list.error);
      await page.locator('.Toastify__toast').filter({ hasText: list.error }).first().waitFor();
      // the empty line is not shown while the list failed
      expect(await page.getByTestId(`${list.testId}-status`).textContent()).toBe('');
      const retry = page.getByTestId(`${list.testId}-error-retry`);
      const target = await retry.boundingBox();
      expect(target?.height ?? 0).toBeGreaterThanOrEqual(44);
      await shoot(page, `${list.name}-error`, 'en');
      if (list.name === 'trade') {
        await switchLanguage(page, 'kr');
        await box.waitFor();
        await shoot(page, `${list.name}-error`, 'kr');
      }

      await page.unroute(failing);
      await retry.click();
      await box.waitFor({ state: 'detached' });
      // recovered: the list answers (here empty or with rows), and says where it ended
      await expect.poll(() => page.getByTestId(`${list.testId}-status`).textContent()).not.toBe('');
    });
  }
});

/** Tabs from the first field to the last; no focused field may sit under the sticky bar. */
async function tabThroughFields(p: Page, first: string, last: string): Promise<number> {
  await p.getByTestId(first).focus();
  let checked = 0;
  for (let i = 0; i < 40; i += 1) {
    const overlap = await p.evaluate(() => {
      const el = document.activeElement;
      const bar = document.querySelector('[data-testid="sticky-cta"]');
      if (!el || !bar || !(el instanceof HTMLInputElement || el instanceof HTMLSelectElement)) return null;
      const a = el.getBoundingClientRect();
      const b = bar.getBoundingClientRect();
      return { fieldBottom: a.bottom, barTop: b.top, id: el.dataset.testid ?? el.id };
    });
    if (overlap) {
      expect(overlap.fieldBottom, `${overlap.id} under the sticky bar`).toBeLessThanOrEqual(overlap.barTop);
      checked += 1;
      if (overlap.id === last) return checked;
    }
    await p.keyboard.press('Tab');
  }
  throw new Error(`never reached ${last}`);
}

async function expectCtaOnScreen(p: Page, submit: string): Promise<void> {
  expect(await p.evaluate(() => window.scrollY)).toBe(0);
  const box = await p.getByTestId(submit).boundingBox();
  expect(box).not.toBeNull();
  expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(VIEWPORT.height);
  expect(box?.y ?? -1).toBeGreaterThan(0);
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
}

describe('the primary button of a long form', () => {
  it('/sell: on screen before scrolling, never over a focused field', async () => {
    for (const lang of ['en', 'kr'] as const) {
      await switchLanguage(page, lang);
      await page.goto('/sell');
      await page.getByTestId('sell-min').waitFor();
      await page.evaluate(() => window.scrollTo(0, 0));
      await expectCtaOnScreen(page, 'sell-submit');
      await shoot(page, 'sell-top', lang);
      await page.getByTestId('sell-bank').selectOption({ index: 1 });
      expect(await tabThroughFields(page, 'sell-min', 'sell-account')).toBeGreaterThanOrEqual(4);
      await shoot(page, 'sell-focused-last', lang);
    }
  });

  it('/withdraw: on screen before scrolling', async () => {
    for (const lang of ['en', 'kr'] as const) {
      await switchLanguage(page, lang);
      await page.goto('/myinfo');
      await page.getByTestId('tab-wallet').click();
      await page.locator('[data-testid="wallet-item"][data-coin="ETH"]').getByTestId('wallet-send').click();
      await page.getByTestId('withdraw-amount').waitFor();
      await expectCtaOnScreen(page, 'withdraw-submit');
      await shoot(page, 'withdraw-top', lang);
    }
  });

  it('/signup: on screen before scrolling, never over a focused field', async () => {
    const fresh = await e2e.mobilePage();
    await fresh.page.goto('/');
    for (const lang of ['en', 'kr'] as const) {
      await switchLanguage(fresh.page, lang);
      await fresh.page.goto('/agreement');
      await fresh.page.getByTestId('agree-all').check();
      await fresh.page.getByTestId('agreement-next').click();
      await fresh.page.waitForURL((u) => u.pathname === '/signup');
      await fresh.page.getByTestId('signup-submit').waitFor();
      await expectCtaOnScreen(fresh.page, 'signup-submit');
      await shoot(fresh.page, 'signup-top', lang);
      await fresh.page.getByLabel(lang === 'en' ? 'Name' : '이름', { exact: true }).focus();
      for (let i = 0; i < 12; i += 1) {
        await fresh.page.keyboard.press('Tab');
        const r = await fresh.page.evaluate(() => {
          const el = document.activeElement;
          const bar = document.querySelector('[data-testid="sticky-cta"]');
          if (!(el instanceof HTMLInputElement) || !bar) return null;
          return { fieldBottom: el.getBoundingClientRect().bottom, barTop: bar.getBoundingClientRect().top };
        });
        if (r) expect(r.fieldBottom).toBeLessThanOrEqual(r.barTop);
      }
      await shoot(fresh.page, 'signup-tabbed', lang);
    }
    expect(fresh.errors).toEqual([]);
    await fresh.context.close();
  });
});
