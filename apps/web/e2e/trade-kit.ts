import { join } from 'node:path';
import { type Coin, toUnits } from '@p2p/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { memberByLoginId } from '../../api/src/modules/identity/index.ts';
import { grantKycLevel } from '../../api/src/modules/kyc/index.ts';
import { createMember } from '../../api/test/fixtures.ts';
import { SCREENSHOT_DIR, screenshot } from './support/browser.ts';

export { expectToast } from './support/browser.ts';

import { type NewMember, newMember, signupViaApi } from './support/flows.ts';
import type { E2EServer } from './support/server.ts';

/** Helpers of the trading and wallet browser tests (trade*.test.ts, wallet*.test.ts); not a test itself. */

export interface Member extends NewMember {
  token: string;
}

export interface WalletView {
  id: number;
  coinCode: Coin;
  address: string;
  /** XRP: the wallet's destination tag at the platform account (DECISIONS §17); null for other coins. */
  destinationTag: number | null;
  balance: string;
  escrowBalance: string;
}

/** Any successful API call through inject; throws with the answer otherwise. */
export async function apiOk<T>(s: E2EServer, method: string, url: string, token?: string, body?: unknown) {
  const r = await s.t.call<T>(method, url, { token, body });
  if (r.status !== 200) throw new Error(`${method} ${url} -> ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.returnData;
}

/**
 * A member signed up over HTTP (real password, SMS code from the outbox) with an API token, put at identity
 * level 2 directly (DECISIONS §19), as a member who finished the verification center.
 */
export async function signedUpMember(s: E2EServer): Promise<Member> {
  const m = await signupViaApi(s, newMember());
  const { accessToken } = await apiOk<{ accessToken: string }>(s, 'POST', '/api/v1/auth/login', undefined, {
    loginId: m.loginId,
    password: m.password,
  });
  const row = await memberByLoginId(s.t.app.deps.db, m.loginId);
  if (row) await grantKycLevel(s.t.app.deps.db, row.id, 2);
  return { ...m, token: accessToken };
}

/** An operator token (role OPERATOR inserted directly, as the API tests do). */
export async function operatorToken(s: E2EServer): Promise<string> {
  return (await createMember(s.t, { role: 'OPERATOR' })).token;
}

export async function createWallet(s: E2EServer, token: string, coin: Coin): Promise<WalletView> {
  return apiOk<WalletView>(s, 'POST', '/api/v1/wallets/create', token, { coinCode: coin });
}

export async function walletOf(s: E2EServer, token: string, coin: Coin): Promise<WalletView> {
  const list = await apiOk<WalletView[]>(s, 'GET', '/api/v1/wallets', token);
  const w = list.find((x) => x.coinCode === coin);
  if (!w) throw new Error(`no ${coin} wallet`);
  return w;
}

let txSeq = 0;
/**
 * Credits an on-chain deposit through the operator API (POST /ops/api/v1/deposits). An XRP deposit reaches the
 * platform account and names its wallet by `destinationTag` (DECISIONS §17): pass the wallet's tag for XRP.
 */
export async function fund(
  s: E2EServer,
  opToken: string,
  coin: Coin,
  address: string,
  amount: string,
  destinationTag: number | null = null,
) {
  txSeq += 1;
  await apiOk(s, 'POST', '/ops/api/v1/deposits', opToken, {
    coinCode: coin,
    address,
    amount,
    txid: `e2e-deposit-${Date.now()}-${txSeq}`,
    ...(destinationTag === null ? {} : { destinationTag }),
  });
}

/** Approves every listing waiting for review (POST /ops/api/v1/listings/{id}/approve). */
export async function approvePending(s: E2EServer, opToken: string): Promise<number[]> {
  const page = await apiOk<{ list: { listingId: number }[] }>(
    s,
    'GET',
    '/ops/api/v1/listings?status=PENDING_REVIEW&size=50',
    opToken,
  );
  for (const l of page.list) await apiOk(s, 'POST', `/ops/api/v1/listings/${l.listingId}/approve`, opToken);
  return page.list.map((l) => l.listingId);
}

/** Opens /login in `page` and signs in through the form; waits for home. */
export async function uiLogin(page: Page, m: Member): Promise<void> {
  await page.goto('/login');
  await page.getByTestId('login-submit').waitFor();
  await page.locator('input[autocomplete="username"], input[name="loginId"]').first().fill(m.loginId);
  await page.locator('input[type="password"]').first().fill(m.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((u) => u.pathname === '/');
}

/** Sets the stored language and reloads (history state survives a reload, so state-fed screens stay). */
export async function switchLanguage(page: Page, lang: 'en' | 'kr'): Promise<void> {
  await page.evaluate((l) => window.localStorage.setItem('language', l), lang);
  await page.reload();
}

/**
 * Screenshots the current screen in kr and en as trade-<name> (test-output/screenshots), waiting for
 * `ready` each time, and leaves the page in kr.
 */
export async function shootBoth(page: Page, name: string, ready: string): Promise<void> {
  for (const lang of ['en', 'kr'] as const) {
    await switchLanguage(page, lang);
    await page.getByTestId(ready).first().waitFor();
    await page.waitForTimeout(350);
    await screenshot(page, `trade-${name}`, lang);
  }
}

/** Screenshots the viewport as it is now (kr), e.g. an open modal: kr-trade-<name>.png. */
export async function shootNow(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOT_DIR, `kr-trade-${name}.png`), animations: 'disabled' });
}

/** Asserts a decimal-string amount equals `expected` exactly (base units, never floats). */
export function expectQty(actual: string, expected: string): void {
  expect(toUnits(actual), `${actual} vs ${expected}`).toBe(toUnits(expected));
}

/** Grants clipboard access so the deposit page's copy button works headless. */
export async function allowClipboard(context: BrowserContext, origin: string): Promise<void> {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
}
