import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot, setStoredLanguage } from './support/browser.ts';
import { loginViaUi, signupViaApi, waitForPath } from './support/flows.ts';
import { e2eSuite } from './support/suite.ts';

const e2e = e2eSuite();

/** Screenshots the screen in kr, en and jp (reloads keep the history state), then returns to en. */
async function shootAll(page: Page, name: string, ready: string): Promise<void> {
  for (const lang of ['kr', 'en', 'jp'] as const) {
    await page.evaluate((l) => window.localStorage.setItem('language', l), lang);
    await page.reload();
    await page.getByTestId(ready).waitFor();
    await screenshot(page, name, lang, { idle: false });
  }
  await page.evaluate(() => window.localStorage.setItem('language', 'en'));
  await page.reload();
  await page.getByTestId(ready).waitFor();
}

/** Tokens of a fresh member, logged in through the API. */
async function tokensOf(loginId: string, password: string) {
  const r = await e2e.server.t.call<{ accessToken: string; refreshToken: string }>(
    'POST',
    '/api/v1/auth/login',
    {
      body: { loginId, password },
    },
  );
  return r.body.returnData;
}

describe('sessions at app start and when they end (SPEC §4, §8)', () => {
  it('a dead token on a public page: the header offers login again and a toast says why, in the chosen language', async () => {
    const { context, page, errors } = await e2e.mobilePage();
    await setStoredLanguage(context, 'kr');
    await context.addInitScript(() => {
      if (!sessionStorage.getItem('seeded')) {
        sessionStorage.setItem('seeded', '1');
        localStorage.setItem('accessToken', 'dead.token');
      }
    });
    await page.goto('/');
    await page.getByTestId('header-login').waitFor();
    await page.getByText('인증이 만료됐어요. 다시 로그인해주세요.').waitFor();
    expect(await page.getByTestId('header-mypage').count()).toBe(0);
    expect(
      await page.evaluate(() => [localStorage.getItem('accessToken'), localStorage.getItem('language')]),
    ).toEqual([null, 'kr']);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('an expired access token with a live refresh token: refreshed, the member stays signed in, the profile is refetched', async () => {
    const m = await signupViaApi(e2e.server);
    const { refreshToken } = await tokensOf(m.loginId, m.password);
    const { context, page, errors } = await e2e.mobilePage();
    await context.addInitScript((rt) => {
      if (!sessionStorage.getItem('seeded')) {
        sessionStorage.setItem('seeded', '1');
        localStorage.setItem('accessToken', 'expired.token');
        localStorage.setItem('refreshToken', rt);
      }
    }, refreshToken);
    let profileCalls = 0;
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/my') profileCalls += 1;
    });
    // At app start on a public page: the check refreshes and the header stays signed in.
    await page.goto('/');
    await page.getByTestId('header-mypage').waitFor();
    // The header may show the stored session before the check's refresh lands: wait for the rotation.
    await expect.poll(() => page.evaluate(() => localStorage.getItem('refreshToken'))).not.toBe(refreshToken);
    const rotated = await page.evaluate(() => localStorage.getItem('refreshToken'));
    await expect
      .poll(
        async () =>
          JSON.parse((await page.evaluate(() => localStorage.getItem('userInfo'))) ?? '{}').nickname,
      )
      .toBe(m.nickname);

    // Later another call meets a 401: after its refresh the profile is fetched again (SPEC §4).
    await expect.poll(() => profileCalls).toBe(2);
    await page.evaluate(() => localStorage.setItem('accessToken', 'expired.again'));
    await page.getByTestId('header-mypage').click();
    await waitForPath(page, '/myinfo');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('refreshToken'))).not.toBe(rotated);
    await expect.poll(() => profileCalls).toBeGreaterThanOrEqual(3);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a guarded URL says login required; a profile that cannot load says so with a retry', async () => {
    const m = await signupViaApi(e2e.server);
    const { context, page, errors } = await e2e.mobilePage();
    await page.goto('/account');
    await waitForPath(page, '/login');
    expect(await page.getByTestId('login-reason').textContent()).toBe('Login required.');
    await shootAll(page, 'login-required', 'login-reason');

    // The first profile load fails at the network: 'failed to load user info' and a retry, not a logout.
    let failProfile = true;
    await page.route(
      (u) => u.pathname === '/my',
      (route) => (failProfile ? route.abort('connectionfailed') : route.continue()),
    );
    await loginViaUi(page, m);
    await waitForPath(page, '/account');
    await page.getByTestId('profile-failed').waitFor();
    expect(await page.getByTestId('profile-failed').textContent()).toBe('Failed to load user info.');
    await shootAll(page, 'profile-failed', 'profile-failed');
    failProfile = false;
    await page.getByTestId('profile-retry').click();
    await expect.poll(() => page.getByTestId('acc-nickname').textContent()).toBe(m.nickname);
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).not.toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });
});
