import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Coin, toUnits } from '@p2p/contract';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { type MobilePage, newPage as newBrowserPage, SCREENSHOT_DIR, VIEWPORT } from './support/browser.ts';

export { expectToast, SCREENSHOT_DIR } from './support/browser.ts';

import { type NewMember, newMember, signupViaApi } from './support/flows.ts';
import { type E2EServer, startE2EServer } from './support/server.ts';

/** Helpers of the operator console's browser tests (ops*.test.ts); not a test file itself. */

export const DESK = { width: 1280, height: 800 };
export const PHONE = VIEWPORT;
export const OPERATOR = { loginId: 'opsadmin', password: 'opsPass123!' };

/** The E2E server with the operator of OPERATOR_LOGIN_ID / OPERATOR_PASSWORD created at start. */
export function startOpsServer(): Promise<E2EServer> {
  return startE2EServer({ OPERATOR_LOGIN_ID: OPERATOR.loginId, OPERATOR_PASSWORD: OPERATOR.password });
}

/** A fresh context (empty storage) at `viewport` (the desk by default), page errors collected into `errors`. */
export function newPage(browser: Browser, baseURL: string, viewport = DESK): Promise<MobilePage> {
  return newBrowserPage(browser, baseURL, viewport);
}

/** The viewport as test-output/screenshots/ops-<name>.png (not committed). */
export async function opsShot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `ops-${name}.png`), animations: 'disabled' });
}

/** Fills and submits /ops/login (goes there first). */
export async function consoleLogin(page: Page, creds: { loginId: string; password: string }): Promise<void> {
  await page.goto('/ops/login');
  await page.getByLabel('Operator ID', { exact: true }).fill(creds.loginId);
  await page.getByLabel('Password', { exact: true }).fill(creds.password);
  await page.getByTestId('ops-login-submit').click();
}

/** In the open confirmation modal: fills `fields` (reason, txid), confirms, waits for it to close. */
export async function confirmAction(page: Page, fields: Record<string, string> = {}): Promise<void> {
  const dialog = page.getByTestId('confirm-dialog');
  await dialog.waitFor();
  for (const [name, value] of Object.entries(fields)) await page.getByTestId(`confirm-${name}`).fill(value);
  await page.getByTestId('confirm-submit').click();
  await dialog.waitFor({ state: 'detached' });
}

/** POST /api/v1/auth/login through the API; the access token. */
export async function apiLogin(server: E2EServer, loginId: string, password: string): Promise<string> {
  const r = await server.t.call<{ accessToken: string }>('POST', '/api/v1/auth/login', {
    body: { loginId, password },
  });
  if (r.status !== 200) throw new Error(`login ${loginId} failed: ${JSON.stringify(r.body)}`);
  return r.body.returnData.accessToken;
}

export interface ApiMember extends NewMember {
  id: number;
  token: string;
}

/** A member signed up over HTTP (SMS code from the outbox), logged in, with its id. */
export async function apiMember(server: E2EServer): Promise<ApiMember> {
  const m = await signupViaApi(server, newMember());
  const token = await apiLogin(server, m.loginId, m.password);
  const me = await server.t.call<{ id: number }>('GET', '/my', { token });
  return { ...m, id: me.body.returnData.id, token };
}

interface WalletView {
  id: number;
  coinCode: Coin;
  address: string;
  balance: string;
  escrowBalance: string;
}

/** Creates the member's wallet of `coin` (POST /api/v1/wallets/create). */
export async function apiWallet(server: E2EServer, token: string, coin: Coin): Promise<WalletView> {
  const r = await server.t.call<WalletView>('POST', '/api/v1/wallets/create', {
    token,
    body: { coinCode: coin },
  });
  if (r.status !== 200) throw new Error(`wallet ${coin} refused: ${JSON.stringify(r.body)}`);
  return r.body.returnData;
}

/** The member's wallet of `coin` as GET /api/v1/wallets shows it. */
export async function walletOf(server: E2EServer, token: string, coin: Coin): Promise<WalletView> {
  const r = await server.t.call<WalletView[]>('GET', '/api/v1/wallets', { token });
  const w = r.body.returnData.find((x) => x.coinCode === coin);
  if (!w) throw new Error(`no ${coin} wallet`);
  return w;
}

/** Asserts a decimal-string amount equals `expected` exactly (compared in base units, never as floats). */
export function expectQty(actual: string, expected: string): void {
  expect(toUnits(actual), `${actual} vs ${expected}`).toBe(toUnits(expected));
}

/** Any successful API call through inject; throws with the answer otherwise. */
export async function apiOk<T>(
  server: E2EServer,
  method: string,
  url: string,
  token: string,
  body?: unknown,
): Promise<T> {
  const r = await server.t.call<T>(method, url, { token, body });
  if (r.status !== 200) throw new Error(`${method} ${url} -> ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.returnData;
}

/** Verifies the member's own phone for a purchase (POST /sms/request + /sms/verify with the outbox code). */
export async function verifyPurchasePhone(server: E2EServer, m: ApiMember): Promise<void> {
  await apiOk(server, 'POST', '/sms/request', m.token, { phone: m.phoneE164 });
  const code = await server.smsCode(m.phoneE164);
  await apiOk(server, 'POST', '/sms/verify', m.token, { phone: m.phoneE164, code });
}
