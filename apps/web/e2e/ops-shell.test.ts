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
  opsShot,
  PHONE,
  startOpsServer,
} from './ops-kit.ts';
import { waitForPath } from './support/flows.ts';
import { e2eSuite } from './support/suite.ts';

/**
 * The operator console as a part of the web app: its own chunk (never loaded by the landing page), its
 * own session beside a member's (token refresh, logout), its languages, and its layout on a phone.
 */
describe('operator console in the web app', () => {
  const e2e = e2eSuite(startOpsServer);
  let member: ApiMember;

  beforeAll(async () => {
    member = await apiMember(e2e.server);
    // One pending external withdrawal, so that a wide table has a row on the phone.
    const opsToken = await apiLogin(e2e.server, OPERATOR.loginId, OPERATOR.password);
    const wallet = await apiWallet(e2e.server, member.token, 'BTC');
    await apiOk(e2e.server, 'POST', '/ops/api/v1/deposits', opsToken, {
      coinCode: 'BTC',
      address: wallet.address,
      amount: '1',
      txid: 'shell-deposit-1',
    });
    await apiOk(e2e.server, 'POST', '/transfer/request', member.token, {
      fromWalletId: wallet.id,
      destType: 'EXTERNAL',
      amount: '0.25',
      destExternalAddress: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      stepUp: { password: member.password },
    });
  });

  it('stays out of the landing page: its chunk loads only under /ops', async () => {
    const fresh = await newPage(e2e.browser, e2e.server.baseUrl);
    const scripts: string[] = [];
    const warnings: string[] = [];
    fresh.page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
    fresh.page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    try {
      await fresh.page.goto('/');
      await fresh.page.waitForLoadState('networkidle');
      expect(scripts.length).toBeGreaterThan(0);
      expect(scripts.filter((u) => /OpsApp/.test(u))).toEqual([]);
      await fresh.page.goto('/ops/login');
      await fresh.page.getByTestId('ops-login-submit').waitFor();
      expect(scripts.filter((u) => /OpsApp/.test(u))).toHaveLength(1);
      expect(warnings.filter((w) => /HydrateFallback/.test(w))).toEqual([]);
      expect(fresh.errors).toEqual([]);
    } finally {
      await fresh.context.close();
    }
  });

  it('refreshes an expired operator token once, and logs out without touching the member session', async () => {
    const { context, page, errors } = await newPage(e2e.browser, e2e.server.baseUrl);
    try {
      await page.goto('/');
      await page.evaluate((token) => window.localStorage.setItem('accessToken', token), member.token);
      await consoleLogin(page, OPERATOR);
      await waitForPath(page, '/ops');
      // Let the overview's own calls finish first: one that started with the forged token would refresh,
      // and the navigation below would drop the rotated token mid-flight, so the next page would present the
      // old refresh token again (reuse: the server ends the whole session, as DECISIONS §6 wants).
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => window.sessionStorage.setItem('opsAccessToken', 'expired.or.forged'));
      await page.goto('/ops/members');
      await page.getByTestId(`member-row-${member.loginId}`).waitFor();
      const renewed = await page.evaluate(() => window.sessionStorage.getItem('opsAccessToken'));
      expect(renewed).not.toBe('expired.or.forged');
      expect(renewed).toBeTruthy();

      // Logout ends the operator's session on the server too: a copy of the ops token no longer works.
      expect((await e2e.server.t.call('GET', '/my', { token: renewed ?? '' })).status).toBe(200);
      await page.getByTestId('ops-logout').click();
      await waitForPath(page, '/ops/login');
      // The revocation runs in the background of the logout click.
      await expect
        .poll(async () => (await e2e.server.t.call('GET', '/my', { token: renewed ?? '' })).status)
        .toBe(401);
      const left = await page.evaluate(() => ({
        access: window.sessionStorage.getItem('opsAccessToken'),
        refresh: window.sessionStorage.getItem('opsRefreshToken'),
        member: window.localStorage.getItem('accessToken'),
      }));
      expect(left).toEqual({ access: null, refresh: null, member: member.token });
      await page.goto('/ops/ledger');
      await waitForPath(page, '/ops/login');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('is usable on a phone: top navigation, wide tables scroll inside their frame, Korean texts', async () => {
    const { context, page, errors } = await newPage(e2e.browser, e2e.server.baseUrl, PHONE);
    try {
      await consoleLogin(page, OPERATOR);
      await waitForPath(page, '/ops');
      await page.getByTestId('ops-nav-withdrawals').click();
      await waitForPath(page, '/ops/withdrawals');
      await page.locator('[data-testid^="send-"]').first().waitFor();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBe(0);
      await opsShot(page, 'phone-withdrawals');
      await page.getByTestId('ops-nav-root').click();
      await waitForPath(page, '/ops');
      await opsShot(page, 'phone-overview');
      await page.getByTestId('language-button').click();
      await page.getByTestId('language-kr').click();
      await page.getByText('운영자 콘솔').first().waitFor();
      await page.getByTestId('summary-pendingWithdrawals').getByText('전송할 출금').waitFor();
      await opsShot(page, 'phone-overview-kr');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
