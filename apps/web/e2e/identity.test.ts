import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser.ts';
import { loginViaUi, newMember, signupViaApi, waitForPath } from './support/flows.ts';
import { e2eSuite } from './support/suite.ts';

const e2e = e2eSuite();

/** The toast of a session the refresh could not save (SPEC §8, in the app's 해요체). */
const REFRESH_FAILED_KR = '토큰 갱신에 실패했어요.';

describe('identity screens against the real API', () => {
  it('signs up from / through /agreement, /signup and /complete, then logs in, edits the profile and logs out', async () => {
    const { context, page, errors } = await e2e.mobilePage();
    const m = newMember();

    await page.goto('/');
    await page.getByTestId('header-signup').click();
    await waitForPath(page, '/agreement');

    // Both consents are required; the terms open in a modal that locks scrolling.
    await page.getByTestId('agreement-next').click();
    await expect
      .poll(() => page.getByTestId('agreement-error').textContent())
      .toBe('Agreement to terms is required.');
    await page.getByTestId('view-terms').click();
    await page.getByTestId('legal-terms').waitFor();
    expect(await page.evaluate(() => document.body.classList.contains('scroll-locked'))).toBe(true);
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    // the lock is released by the modal's cleanup, which may run a frame after it leaves the page
    await expect
      .poll(() => page.evaluate(() => document.body.classList.contains('scroll-locked')))
      .toBe(false);
    await page.getByTestId('agree-terms').check();
    await page.getByTestId('agree-privacy').check();
    await page.getByTestId('agreement-next').click();
    await waitForPath(page, '/signup');

    // Live validation with the SPEC §5 texts.
    await page.getByLabel('ID', { exact: true }).fill('ab');
    await page.getByText('ID must be 4-16 characters long.').waitFor();
    await page.getByLabel('ID', { exact: true }).fill('ab_cd');
    await page.getByText('ID can only contain English letters and numbers.').waitFor();
    await page.getByLabel('Password', { exact: true }).fill('abcdefgh');
    await page
      .getByText('Must include at least two of English letters, numbers, or special characters.')
      .waitFor();

    await page.getByLabel('Name', { exact: true }).fill(m.name);
    await page.getByLabel('ID', { exact: true }).fill(m.loginId);
    await page.getByTestId('check-id').click();
    await page.getByText('This ID is available.').first().waitFor();
    await page.getByLabel('Nickname', { exact: true }).fill(m.nickname);
    await page.getByTestId('check-nickname').click();
    await page.getByText('This nickname is available.').first().waitFor();
    await page.getByLabel('Password', { exact: true }).fill(m.password);
    await page.getByLabel('Confirm password', { exact: true }).fill('different1');
    await page.getByText('Passwords do not match.').waitFor();
    await page.getByLabel('Confirm password', { exact: true }).fill(m.password);

    // Phone: the code comes from the development outbox; Verify -> Verified locks the phone.
    // another mobile number first (the last digit changed)
    const other = `${m.localPhone.slice(0, -1)}${(Number(m.localPhone.slice(-1)) + 1) % 10}`;
    await page.getByLabel('Phone number').fill(other);
    await page.getByTestId('send-code').click();
    await page.getByText('Verification code has been sent.').first().waitFor();
    await expect.poll(() => page.getByTestId('code-timer').textContent()).toMatch(/^0[12]:\d\d$/);
    // Editing the phone drops the code: the countdown stops and Verify needs a new code.
    await page.getByLabel('Phone number').fill(m.localPhone);
    await expect.poll(() => page.getByTestId('code-timer').textContent()).toBe('');
    expect(await page.getByTestId('verify-code').isDisabled()).toBe(true);
    const resentAt = Date.now();
    await page.getByTestId('send-code').click();
    await expect.poll(() => page.getByTestId('code-timer').textContent()).toMatch(/^0[12]:\d\d$/);
    await page.getByLabel('Verification code').fill(await e2e.server.smsCode(m.phoneE164, resentAt));
    await page.getByTestId('verify-code').click();
    await expect.poll(() => page.getByTestId('verify-code').textContent()).toBe('Verified');
    expect(await page.getByLabel('Phone number').getAttribute('readonly')).not.toBeNull();

    await page.getByTestId('signup-submit').click();
    await waitForPath(page, '/complete');
    await page.getByText('Step 3 of 3').waitFor();

    await page.getByTestId('complete-login').click();
    await waitForPath(page, '/login');
    await loginViaUi(page, m);
    await waitForPath(page, '/');
    await page.getByTestId('header-mypage').click();
    await waitForPath(page, '/myinfo');
    await expect.poll(() => page.getByTestId('greeting').textContent()).toBe(`Hello, ${m.nickname}`);
    expect(await page.getByTestId('my-login-id').textContent()).toBe(m.loginId);

    // The active tab is remembered for the browser session.
    await page.getByTestId('tab-sellHistory').click();
    await page.reload();
    await page.getByTestId('tabpanel-sellHistory').waitFor();

    await page.getByTestId('to-account').click();
    await waitForPath(page, '/account');
    await expect
      .poll(() => page.getByTestId('acc-phone').textContent())
      .toBe(`${m.localPhone.slice(0, 3)}-${m.localPhone.slice(3, 7)}-${m.localPhone.slice(7)}`);
    expect(await page.getByTestId('acc-holder').textContent()).toBe(m.name);

    // /modify: new nickname and bank; the phone must be verified again.
    await page.getByTestId('to-modify').click();
    await waitForPath(page, '/modify');
    const nickname = `${m.nickname.slice(0, 8)}new`;
    await expect.poll(() => page.getByLabel('Nickname', { exact: true }).inputValue()).toBe(m.nickname);
    await page.getByLabel('Nickname', { exact: true }).fill(nickname);
    await page.getByTestId('bank-select').selectOption('기타');
    await page.getByLabel('Bank name').fill('');
    await page.getByTestId('modify-submit').click();
    await page.getByText('Please enter the bank name.').waitFor();
    await page.getByText('Please complete the verification check.').waitFor();
    await page.getByLabel('Bank name').fill('Jeonbuk Credit Union');
    await page.getByLabel('Account number').fill('110-222 a');
    await page.getByText('The account number can hold digits and hyphens (-) only.').waitFor();
    await page.getByLabel('Account number').fill('110222333444');
    await page.getByTestId('send-code').click();
    await page.getByText('Verification code has been sent.').first().waitFor();
    await page.getByLabel('Verification code').fill(await e2e.server.smsCode(m.phoneE164));
    await page.getByTestId('verify-code').click();
    await expect.poll(() => page.getByTestId('verify-code').textContent()).toBe('Verified');
    // A new bank account needs the current password (DECISIONS §13): the field appears, empty or wrong is refused.
    await page.getByTestId('modify-submit').click();
    await page.getByText('Please enter your current password.').waitFor();
    await page.getByLabel('Current password', { exact: true }).fill('wrong-pass1');
    await page.getByTestId('modify-submit').click();
    await page.getByText('The current password is not correct.').first().waitFor();
    expect(page.url()).toContain('/modify');
    await page.getByLabel('Current password', { exact: true }).fill(m.password);
    await page.getByTestId('modify-submit').click();
    await waitForPath(page, '/account');
    await expect.poll(() => page.getByTestId('acc-nickname').textContent()).toBe(nickname);
    expect(await page.getByTestId('acc-bank').textContent()).toBe('Jeonbuk Credit Union');
    expect(await page.getByTestId('acc-account-no').textContent()).toBe('110222333444');

    // Logout revokes the session on the server (DECISIONS §13), then clears local state: tokens and userInfo
    // are gone, the header offers login again, and a copy of the old access token no longer works.
    await page.goto('/myinfo');
    const oldAccessToken = await page.evaluate(() => localStorage.getItem('accessToken'));
    expect((await e2e.server.t.call('GET', '/my', { token: oldAccessToken ?? '' })).status).toBe(200);
    await page.getByTestId('myinfo-logout').click();
    await waitForPath(page, '/');
    await page.getByTestId('header-login').waitFor();
    expect((await e2e.server.t.call('GET', '/my', { token: oldAccessToken ?? '' })).status).toBe(401);
    const stored = await page.evaluate(() => [
      localStorage.getItem('accessToken'),
      localStorage.getItem('refreshToken'),
      localStorage.getItem('userInfo'),
    ]);
    expect(stored).toEqual([null, null, null]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sends a logged-out visitor of a guarded URL to /login and back there after login', async () => {
    const m = await signupViaApi(e2e.server);
    const { context, page, errors } = await e2e.mobilePage();
    await page.goto('/account?from=test');
    await waitForPath(page, '/login');
    await loginViaUi(page, m);
    await waitForPath(page, '/account');
    expect(new URL(page.url()).search).toBe('?from=test');
    await expect.poll(() => page.getByTestId('acc-nickname').textContent()).toBe(m.nickname);

    // A wrong password shows the SPEC §8 text and stays on /login.
    await page.evaluate(() => localStorage.clear());
    await page.goto('/login');
    await loginViaUi(page, { loginId: m.loginId, password: 'wrong-pass1' });
    await page.getByText('Invalid user credentials.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('refreshes an expired access token once and otherwise ends the session on / saying why (SPEC §4)', async () => {
    const m = await signupViaApi(e2e.server);
    const { context, page } = await e2e.mobilePage();
    const login = await e2e.server.t.call<{ accessToken: string; refreshToken: string }>(
      'POST',
      '/api/v1/auth/login',
      {
        body: { loginId: m.loginId, password: m.password },
      },
    );
    const { refreshToken } = login.body.returnData;
    await page.goto('/');
    await page.evaluate((rt) => {
      localStorage.setItem('accessToken', 'expired.or.invalid');
      localStorage.setItem('refreshToken', rt);
    }, refreshToken);
    await page.goto('/account');
    await expect.poll(() => page.getByTestId('acc-nickname').textContent()).toBe(m.nickname);
    const rotated = await page.evaluate(() => localStorage.getItem('refreshToken'));
    expect(rotated).not.toBe(refreshToken);

    // Both tokens bad: one refresh attempt fails; the tokens go, the member lands on / (SPEC §4) where a
    // toast says why, and the chosen language stays.
    await page.evaluate(() => {
      localStorage.setItem('accessToken', 'bad');
      localStorage.setItem('refreshToken', 'bad');
      localStorage.setItem('language', 'kr');
    });
    await page.goto('/myinfo');
    await waitForPath(page, '/');
    await page.locator('.Toastify__toast').filter({ hasText: REFRESH_FAILED_KR }).waitFor();
    await page.getByTestId('header-login').waitFor();
    await screenshot(page, 'home-session-ended', 'kr', { idle: false });
    expect(
      await page.evaluate(() => [localStorage.getItem('accessToken'), localStorage.getItem('language')]),
    ).toEqual([null, 'kr']);
    await context.close();
  });

  it('resets a password in three steps (/findpw) and logs in with the new one', async () => {
    const m = await signupViaApi(e2e.server);
    const { context, page, errors } = await e2e.mobilePage();
    await page.goto('/findpw');
    await page.getByLabel('ID', { exact: true }).fill('nobody9999');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Please check the ID.').waitFor();

    await page.getByLabel('ID', { exact: true }).fill(m.loginId);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByTestId('findpw-step-code').waitFor();
    // The phone is shown masked (DECISIONS §6).
    expect(await page.getByLabel('Phone number').inputValue()).toBe(`+82 *******${m.phoneE164.slice(-4)}`);
    const sentAt = Date.now();
    await page.getByTestId('send-code').click();
    await expect.poll(() => page.getByTestId('code-timer').textContent()).toMatch(/^00:(30|29|28)$/);
    await page.getByLabel('Verification code').fill(await e2e.server.smsCode(m.phoneE164, sentAt));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByTestId('findpw-step-password').waitFor();

    await page.getByLabel('New password').fill('newpass99!');
    await page.getByLabel('Confirm password').fill('newpass98!');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Passwords do not match.').waitFor();
    await page.getByLabel('Confirm password').fill('newpass99!');
    await page.getByRole('button', { name: 'Change password' }).click();
    await waitForPath(page, '/login');
    await page.getByText('Password changed successfully.').waitFor();
    await loginViaUi(page, { loginId: m.loginId, password: 'newpass99!' });
    await waitForPath(page, '/');
    await page.getByTestId('header-mypage').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
