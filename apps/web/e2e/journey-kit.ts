import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { freePort, freshDatabase } from '../../api/test/infra.ts';
import { ensureWebBuild, WEB_DIR } from './support/build.ts';
import { type NewMember, waitForPath } from './support/flows.ts';

/** Helpers of the journey test (journey.test.ts): the server started as the README starts it, and steps. */

const ROOT = resolve(WEB_DIR, '../..');
export const JOURNEY_DIR = join(WEB_DIR, 'test-output/journey');

export interface ReadmeServer {
  baseUrl: string;
  /** Stops the server (its whole process group) and removes its database and data directory. */
  stop: () => Promise<void>;
}

async function waitForHealth(baseUrl: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`server exited:\n${readFileSync(logFile, 'utf8').slice(-3000)}`);
    const ok = await fetch(`${baseUrl}/healthz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no /healthz within 120 s:\n${readFileSync(logFile, 'utf8').slice(-3000)}`);
}

/**
 * `node scripts/start.mjs` from the repository root, as `npm start` runs it, on a free PORT with a fresh
 * database (a new PostgreSQL database when DATABASE_URL is set, else embedded PGlite in a new DATA_DIR),
 * SEED_DEMO=0, the operator from OPERATOR_LOGIN_ID / OPERATOR_PASSWORD and static prices. WEB_DIST_DIR
 * points at a build of the current sources (apps/web/dist may be older). Output goes to
 * test-output/journey/server.log.
 */
export async function startAsReadme(operator: { loginId: string; password: string }): Promise<ReadmeServer> {
  const dist = ensureWebBuild();
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'p2p-journey-'));
  const db = process.env.DATABASE_URL ? await freshDatabase(process.env.DATABASE_URL, 'journey') : null;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    SEED_DEMO: '0',
    // the journey is about trading; the verification center has its own suite (DECISIONS §19)
    KYC_TRADE_LEVEL: '0',
    // likewise the 1원 account check, the hold on bought coins and the Travel Rule (their API tests run them)
    BANK_VERIFY_REQUIRED: '0',
    WITHDRAW_HOLD_SEC: '0',
    WITHDRAW_HOLD_NEW_SEC: '0',
    TRAVEL_RULE_MIN_KRW: String(Number.MAX_SAFE_INTEGER),
    OPERATOR_LOGIN_ID: operator.loginId,
    OPERATOR_PASSWORD: operator.password,
    PRICE_PROVIDER: 'static',
    WEB_DIST_DIR: dist,
  };
  // As a shell would: no test-runner NODE_ENV, and the embedded database unless PostgreSQL was asked for.
  delete env.NODE_ENV;
  delete env.DATABASE_URL;
  if (db) env.DATABASE_URL = db.url;
  mkdirSync(JOURNEY_DIR, { recursive: true });
  const logFile = join(JOURNEY_DIR, 'server.log');
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', log, log],
    detached: true,
  });
  closeSync(log);
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.pid && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid, 'SIGTERM');
      const timer = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseUrl, child, logFile);
  } catch (err) {
    await stop();
    throw err;
  }
  return { baseUrl, stop };
}

/** One HTTP call to the running server; returns returnData, throws with the envelope otherwise. */
export async function http<T>(baseUrl: string, method: string, path: string, token?: string): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const body = (await res.json()) as { returnData: T };
  if (!res.ok) throw new Error(`${method} ${path} -> ${res.status} ${JSON.stringify(body)}`);
  return body.returnData;
}

/**
 * The SMS code sent to the phone at or after `sentAfterMs` (GET /dev/sms/outbox, DECISIONS §10), polling
 * until it is there: the screen may show its countdown before the send call has answered.
 */
export async function outboxCode(baseUrl: string, phoneE164: string, sentAfterMs: number): Promise<string> {
  const path = `/dev/sms/outbox?phone=${encodeURIComponent(phoneE164)}`;
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const r = await http<{ code: string; sentAt: string }>(baseUrl, 'GET', path).catch(() => null);
    // Whole-second slack for a database clock that rounds.
    if (r && Date.parse(r.sentAt) >= sentAfterMs - 1000) return r.code;
    await new Promise((res) => setTimeout(res, 200));
  }
  throw new Error(`no new SMS code for ${phoneE164}`);
}

let stepNo = 0;
/** Saves the viewport as test-output/journey/NN-<name>.png, numbered in the order taken. */
export async function step(page: Page, name: string): Promise<void> {
  stepNo += 1;
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.waitForTimeout(250);
  const file = `${String(stepNo).padStart(2, '0')}-${name}.png`;
  await page.screenshot({ path: join(JOURNEY_DIR, file), animations: 'disabled' });
}

/**
 * A visitor signs up through the UI: / -> /agreement (both consents) -> /signup (ID and nickname checked,
 * the phone verified with the code from the outbox) -> /complete. Returns when the signup is complete.
 */
export async function signupThroughUi(page: Page, baseUrl: string, m: NewMember, who: string) {
  await page.goto('/');
  await page.getByTestId('header-signup').click();
  await waitForPath(page, '/agreement');
  await page.getByTestId('agree-terms').check();
  await page.getByTestId('agree-privacy').check();
  await page.getByTestId('agreement-next').click();
  await waitForPath(page, '/signup');
  await page.getByLabel('Name', { exact: true }).fill(m.name);
  await page.getByLabel('ID', { exact: true }).fill(m.loginId);
  await page.getByTestId('check-id').click();
  await page.getByText('This ID is available.').first().waitFor();
  await page.getByLabel('Nickname', { exact: true }).fill(m.nickname);
  await page.getByTestId('check-nickname').click();
  await page.getByText('This nickname is available.').first().waitFor();
  await page.getByLabel('Password', { exact: true }).fill(m.password);
  await page.getByLabel('Confirm password', { exact: true }).fill(m.password);
  await page.getByLabel('Phone number').fill(m.localPhone);
  const sentAfter = Date.now();
  await page.getByTestId('send-code').click();
  await page.getByText('Verification code has been sent.').waitFor();
  await page.getByLabel('Verification code').fill(await outboxCode(baseUrl, m.phoneE164, sentAfter));
  await page.getByTestId('verify-code').click();
  await page.getByTestId('verify-code').getByText('Verified').waitFor();
  await step(page, `${who}-signup`);
  await page.getByTestId('signup-submit').click();
  await waitForPath(page, '/complete');
  await step(page, `${who}-signup-complete`);
}
