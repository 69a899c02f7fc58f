import { randomBytes, randomInt } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { WEB_DIR } from './build.ts';
import type { E2EServer } from './server.ts';

const FAILURE_DIR = join(WEB_DIR, 'test-output/failures');

export interface NewMember {
  name: string;
  loginId: string;
  nickname: string;
  password: string;
  /** National format as typed in the form, e.g. 01012345678. */
  localPhone: string;
  phoneE164: string;
}

/** A fresh, valid member (unique id, nickname and Korean mobile number). */
export function newMember(): NewMember {
  const suffix = randomBytes(3).toString('hex');
  const digits = String(randomInt(60_000_000, 99_999_999));
  return {
    name: 'Kim Minsu',
    loginId: `e2e${suffix}`,
    nickname: `nick${suffix}`,
    password: 'pass1234!',
    localPhone: `010${digits}`,
    phoneE164: `+8210${digits}`,
  };
}

/** Signs a member up through the API (SMS code from the dev outbox), for tests that start logged out. */
export async function signupViaApi(server: E2EServer, m: NewMember = newMember()): Promise<NewMember> {
  const { t } = server;
  const sent = await t.call('POST', '/sms/request', { body: { phone: m.phoneE164 } });
  if (sent.status >= 300) throw new Error(`sms request failed: ${JSON.stringify(sent.body)}`);
  const code = await server.smsCode(m.phoneE164);
  const verified = await t.call('POST', '/sms/verify', { body: { phone: m.phoneE164, code } });
  if (verified.status >= 300) throw new Error(`sms verify failed: ${JSON.stringify(verified.body)}`);
  const r = await t.call('POST', '/api/v1/members/signup', {
    body: {
      loginId: m.loginId,
      password: m.password,
      name: m.name,
      nickname: m.nickname,
      countryCode: '82',
      phoneE164: m.phoneE164,
    },
  });
  if (r.status >= 300) throw new Error(`signup failed: ${JSON.stringify(r.body)}`);
  return m;
}

/** Fills and submits /login (the page must already be on /login). */
export async function loginViaUi(page: Page, m: Pick<NewMember, 'loginId' | 'password'>): Promise<void> {
  await page.getByLabel('ID', { exact: true }).fill(m.loginId);
  await page.getByLabel('Password', { exact: true }).fill(m.password);
  await page.getByTestId('login-submit').click();
}

/** Waits until the path (without query) equals `path`. */
export async function waitForPath(page: Page, path: string): Promise<void> {
  try {
    await page.waitForURL((u) => u.pathname === path, { timeout: 15_000 });
  } catch (err) {
    // Keep what the page showed, to see why it did not get there.
    mkdirSync(FAILURE_DIR, { recursive: true });
    await page
      .screenshot({ path: join(FAILURE_DIR, `waiting-for${path.replace(/\//g, '_')}.png`) })
      .catch(() => {});
    throw new Error(`expected ${path} but the page is at ${page.url()}: ${String(err)}`);
  }
  expect(new URL(page.url()).pathname).toBe(path);
}
