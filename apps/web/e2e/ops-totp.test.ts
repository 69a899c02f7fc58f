import jsQR from 'jsqr';
import { generate } from 'otplib';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { consoleLogin, expectToast, newPage, OPERATOR, opsShot, PHONE, startOpsServer } from './ops-kit.ts';
import { waitForPath } from './support/flows.ts';
import { e2eSuite } from './support/suite.ts';

/** The code of 30-second TOTP time step `step`. */
const codeAt = (secret: string, step: number) => generate({ secret, epoch: step * 30 });
const stepNow = () => Math.floor(Date.now() / 30_000);

/** A 6-digit string that is no valid code anywhere near now. */
async function wrongCode(secret: string): Promise<string> {
  const near = new Set<string>();
  for (let d = -3; d <= 3; d++) near.add(await codeAt(secret, stepNow() + d));
  return ['000000', '111111', '222222'].find((c) => !near.has(c)) ?? '333333';
}

/**
 * The operator's second factor in the console (DECISIONS §13), on a phone: enrollment from the Security page
 * by reading the key the page shows (and the same key in its QR), then sign-out and sign-in with the
 * password and a code from that key.
 */
describe('operator TOTP in the console', () => {
  const e2e = e2eSuite(startOpsServer);

  it('enrolls from the Security page, then signs in with the password and a code', async () => {
    const { context, page, errors } = await newPage(e2e.browser, e2e.server.baseUrl, PHONE);
    try {
      await consoleLogin(page, OPERATOR);
      await waitForPath(page, '/ops');
      // The overview nudges an operator without a second factor towards the Security page.
      await page.getByTestId('totp-nudge').getByRole('link').click();
      await waitForPath(page, '/ops/security');
      const status = page.getByTestId('totp-status');
      await status.getByText('Off', { exact: true }).waitFor();

      await page.getByTestId('totp-start').click();
      const secretBox = page.getByTestId('totp-secret');
      await secretBox.waitFor();
      const secret = ((await secretBox.textContent()) ?? '').replace(/\s/g, '');
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      const qr = page.getByRole('img', { name: 'QR code of the setup key for your authenticator app' });
      await qr.waitFor();
      const png = PNG.sync.read(await qr.screenshot());
      const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
      const url = new URL(decoded?.data ?? 'about:blank');
      expect(url.protocol).toBe('otpauth:');
      expect(url.searchParams.get('secret')).toBe(secret);
      expect(decodeURIComponent(url.pathname)).toContain(OPERATOR.loginId);
      await opsShot(page, 'security-enroll');

      // A wrong code keeps it off and says why.
      const codeField = page.getByTestId('totp-code');
      await codeField.fill(await wrongCode(secret));
      await page.getByTestId('totp-confirm').click();
      await page.getByText('That code is wrong or was already used', { exact: false }).waitFor();

      const step = stepNow();
      await codeField.fill(await codeAt(secret, step));
      await page.getByTestId('totp-confirm').click();
      await expectToast(page, 'Two-step sign-in is on.');
      await status.getByText('On', { exact: true }).waitFor();
      expect(await page.getByTestId('totp-enrollment').count()).toBe(0);
      await opsShot(page, 'security-on');

      await page.getByTestId('ops-logout').click();
      await waitForPath(page, '/ops/login');
      await page.getByLabel('Operator ID', { exact: true }).fill(OPERATOR.loginId);
      await page.getByLabel('Password', { exact: true }).fill(OPERATOR.password);
      await page.getByTestId('ops-login-submit').click();
      const totp = page.getByTestId('ops-login-totp');
      await totp.waitFor();
      expect(await totp.getAttribute('autocomplete')).toBe('one-time-code');
      expect(await totp.getAttribute('inputmode')).toBe('numeric');
      expect(await totp.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(page.url()).toMatch(/\/ops\/login$/);
      await opsShot(page, 'login-totp');

      // The code used to turn it on cannot sign in (replay); the next step's code can.
      await totp.fill(await codeAt(secret, step));
      await page.getByTestId('ops-login-submit').click();
      await page.getByTestId('ops-login-error').getByText('already used', { exact: false }).waitFor();
      await totp.fill(await codeAt(secret, step + 1));
      await page.getByTestId('ops-login-submit').click();
      // Back where the operator signed out, with the factor on; the overview stops nudging.
      await waitForPath(page, '/ops/security');
      await status.getByText('On', { exact: true }).waitFor();
      // On a phone the account line is in the collapsed bar: present, not necessarily visible.
      await page.getByTestId('ops-operator').getByText(OPERATOR.loginId).waitFor({ state: 'attached' });
      await page.getByTestId('ops-nav-root').click();
      await page.getByTestId('summary-members').waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.getByTestId('totp-nudge').count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
