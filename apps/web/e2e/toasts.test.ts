import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser.ts';
import { loginViaUi, signupViaApi, waitForPath } from './support/flows.ts';
import { e2eSuite } from './support/suite.ts';

const e2e = e2eSuite();

describe('toasts', () => {
  it('one at a time, readable, broken between words, and a failed login toast never follows the member home', async () => {
    const m = await signupViaApi(e2e.server);
    const { context, page, errors } = await e2e.mobilePage();
    await page.goto('/login');
    await loginViaUi(page, { loginId: m.loginId, password: 'wrong-pass1' });
    await page.getByText('Invalid user credentials.').waitFor();
    await page.getByTestId('login-submit').click();
    await page.getByLabel('Password', { exact: true }).fill('');
    await page.getByTestId('login-submit').click();
    await page.getByText('Please enter your ID and password.').waitFor();
    // the newer message replaced the older one instead of stacking
    await expect.poll(() => page.locator('.Toastify__toast').count()).toBe(1);
    const style = await page
      .locator('.Toastify__toast')
      .evaluate((el) => ({ wordBreak: getComputedStyle(el).wordBreak, color: getComputedStyle(el).color }));
    expect(style).toEqual({ wordBreak: 'keep-all', color: 'rgb(22, 25, 31)' });

    await page.getByRole('button', { name: 'Home' }).click();
    await waitForPath(page, '/');
    await expect.poll(() => page.locator('.Toastify__toast').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a toast raised for the next screen goes with it; bottom toasts sit above the primary button zone', async () => {
    const m = await signupViaApi(e2e.server);
    const { context, page, errors } = await e2e.mobilePage();
    await page.goto('/login');
    await loginViaUi(page, m);
    await waitForPath(page, '/');
    await page.goto('/verify');
    await waitForPath(page, '/transaction');
    await page.getByText('Invalid access.').waitFor();
    const box = await page.locator('.Toastify__toast-container--bottom-center').boundingBox();
    expect(box).not.toBeNull();
    // at least 96 px of the 844 px screen stay clear under the toast for the bottom button
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(844 - 96);
    await screenshot(page, 'toast-bottom', 'en', { idle: false });
    expect(errors).toEqual([]);
    await context.close();
  });
});
