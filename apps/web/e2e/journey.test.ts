import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, outboxCode, type ReadmeServer, signupThroughUi, startAsReadme, step } from './journey-kit.ts';
import { confirmAction, consoleLogin, DESK, expectQty, expectToast, newPage, PHONE } from './ops-kit.ts';
import { launchBrowser } from './support/browser.ts';
import { loginViaUi, type NewMember, newMember, waitForPath } from './support/flows.ts';

const OPERATOR = { loginId: 'journeyop', password: 'journeyOp123!' };
const EXTERNAL_BTC = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
/** The code resend cooldown of DECISIONS §6 (30 s by default) between two codes to one phone. */
const RESEND_COOLDOWN_MS = 31_000;

/** Tomorrow in Seoul, yyyy-MM-dd (a reservation lies in the future, Korean wall time). */
function seoulTomorrow(): string {
  return new Date(Date.now() + 9 * 3600_000 + 24 * 3600_000).toISOString().slice(0, 10);
}

/**
 * The whole trade in one browser run against a server started as the README starts it:
 * two visitors sign up; the operator credits the seller's deposit in the console; the seller creates a
 * wallet and lists; the operator approves; the buyer buys with a reservation; the seller completes with a
 * TxID; the buyer's wallet shows the coins; the buyer withdraws to an external address; the operator marks
 * it sent; the console's ledger check is clean. Members at 390x844, the console at 1280x800; every step
 * is a screenshot in test-output/journey/.
 */
describe('the journey: two visitors, one trade, the operator console', () => {
  let server: ReadmeServer;
  let browser: Browser;
  let seller: Page;
  let buyer: Page;
  let ops: Page;
  const errors: string[] = [];
  const s: NewMember = newMember();
  const b: NewMember = newMember();
  let buyerCodeAt = 0;

  beforeAll(async () => {
    server = await startAsReadme(OPERATOR);
    browser = await launchBrowser();
    const open = async (viewport: typeof DESK) => {
      const p = await newPage(browser, server.baseUrl, viewport);
      p.page.on('pageerror', (e) => errors.push(e.message));
      return p.page;
    };
    seller = await open(PHONE);
    buyer = await open(PHONE);
    ops = await open(DESK);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const walletTab = async (page: Page) => {
    await page.goto('/myinfo');
    await page.getByTestId('tab-wallet').click();
  };
  const createWallet = async (page: Page) => {
    await walletTab(page);
    await page.getByTestId('to-create-wallet').click();
    await waitForPath(page, '/create_wallet');
    await page.getByTestId('create-coin-BTC').click();
    await page.getByTestId('create-submit').click();
    await waitForPath(page, '/myinfo');
    await page.getByTestId('wallet-item').first().waitFor();
  };
  const opsNav = async (key: string, path: string) => {
    await ops.getByTestId(`ops-nav-${key}`).click();
    await waitForPath(ops, path);
  };

  it('two visitors sign up through the UI and log in', async () => {
    await signupThroughUi(seller, server.baseUrl, s, 'seller');
    await signupThroughUi(buyer, server.baseUrl, b, 'buyer');
    buyerCodeAt = Date.now();
    for (const [page, m] of [
      [seller, s],
      [buyer, b],
    ] as const) {
      await page.getByTestId('complete-login').click();
      await waitForPath(page, '/login');
      await loginViaUi(page, m);
      await waitForPath(page, '/');
    }
    await step(seller, 'seller-home');
  });

  it('the seller creates a BTC wallet; the operator credits its deposit in the console', async () => {
    await createWallet(seller);
    await seller.getByTestId('wallet-receive').first().click();
    await waitForPath(seller, '/deposit');
    const address = ((await seller.getByTestId('deposit-address').textContent()) ?? '').trim();
    expect(address).toMatch(/^bc1q/);
    await step(seller, 'seller-deposit-address');

    await consoleLogin(ops, OPERATOR);
    await waitForPath(ops, '/ops');
    await step(ops, 'ops-overview');
    await opsNav('deposits', '/ops/deposits');
    const form = ops.getByTestId('deposit-form');
    await form.getByLabel('Coin').selectOption('BTC');
    await form.getByLabel('Deposit address').fill(address);
    await form.getByLabel('Amount').fill('1');
    await form.getByLabel('Chain TxID').fill('journey-deposit-0001');
    await ops.getByTestId('deposit-submit').click();
    await ops.getByTestId('confirm-dialog').waitFor();
    await step(ops, 'ops-deposit-confirm');
    await confirmAction(ops);
    await ops.getByTestId('deposit-result').waitFor();
    await step(ops, 'ops-deposit-credited');

    await walletTab(seller);
    await expect
      .poll(() => seller.getByTestId('wallet-item-balance').first().textContent())
      .toBe('1.0000 BTC');
    await step(seller, 'seller-wallet-funded');
  });

  it('the seller lists 0.5 BTC; the operator approves it in the console', async () => {
    await seller.goto('/transaction');
    await seller.getByTestId('to-sell').click();
    await waitForPath(seller, '/sell');
    await seller.getByTestId('sell-min').fill('0.01');
    await seller.getByTestId('sell-max').fill('0.5');
    await seller.getByTestId('sell-price').fill('10000000');
    await seller.getByTestId('sell-bank').selectOption('신한은행');
    await seller.getByTestId('sell-account').fill('11012345678');
    await step(seller, 'seller-sell-form');
    await seller.getByTestId('sell-submit').click();
    // The step-up of a new listing (DECISIONS §13): the review sheet asks for the password.
    await seller.getByTestId('sell-review').waitFor();
    await seller.getByTestId('sell-password').fill(s.password);
    await seller.waitForTimeout(350); // the sheet's slide-in
    await step(seller, 'seller-sell-review');
    await seller.getByTestId('sell-confirm').click();
    await waitForPath(seller, '/request_successfully');
    await seller.getByTestId('receipt-sell').waitFor();
    await step(seller, 'seller-listing-requested');

    await opsNav('listings', '/ops/listings');
    const approve = ops.locator('[data-testid^="approve-"]');
    await approve.first().waitFor();
    expect(await approve.count()).toBe(1);
    await approve.first().click();
    await ops.getByTestId('confirm-dialog').waitFor();
    await step(ops, 'ops-listing-approve');
    await confirmAction(ops);
    await expectToast(ops, 'approved');
    await step(ops, 'ops-listing-approved');
  });

  it('the buyer creates a wallet and buys with a reservation (verified by SMS)', async () => {
    await createWallet(buyer);
    await buyer.goto('/transaction');
    await buyer.getByTestId('listing-card').first().waitFor();
    await step(buyer, 'buyer-trade-list');
    await buyer.getByTestId('buy-reserve').first().click();
    await waitForPath(buyer, '/purchase');
    await buyer.getByTestId('purchase-amount').fill('500000');
    await expect.poll(() => buyer.getByTestId('receive-qty').textContent()).toContain('0.05');
    await buyer.getByTestId('internal-address').waitFor();
    await buyer.getByTestId('reserve-date').fill(seoulTomorrow());
    await buyer.getByTestId('reserve-fine').check();
    await buyer.getByTestId('reserve-time').selectOption('10:15');
    await step(buyer, 'buyer-purchase-reserve');
    await buyer.getByTestId('purchase-submit').click();
    await waitForPath(buyer, '/verify');
    // A second code to the same phone waits for the resend cooldown after the signup code.
    await buyer.waitForTimeout(Math.max(0, buyerCodeAt + RESEND_COOLDOWN_MS - Date.now()));
    const sentAfter = Date.now();
    await buyer.getByTestId('verify-send').click();
    await buyer.getByTestId('verify-code').fill(await outboxCode(server.baseUrl, b.phoneE164, sentAfter));
    await step(buyer, 'buyer-verify');
    await buyer.getByTestId('verify-submit').click();
    await waitForPath(buyer, '/request_successfully');
    await buyer.getByTestId('receipt-purchase').waitFor();
    await buyer.getByTestId('receipt-reserved').getByText(`${seoulTomorrow()} 10:15`).waitFor();
    // a request waiting for the deposit (DECISIONS §11): the instruction leads, then 입금했어요 with a confirm
    await buyer.getByTestId('pay-instruction').waitFor();
    await step(buyer, 'buyer-purchase-receipt');
    await buyer.getByTestId('action-paid').click();
    await buyer.getByTestId('paid-dialog').waitFor();
    await buyer.getByTestId('confirm-yes').click();
    await buyer.locator('[data-testid="status-panel"][data-status="PAID"]').waitFor();
    await step(buyer, 'buyer-paid');
  });

  it('the seller completes the order with a TxID; the buyer’s wallet shows the coins', async () => {
    await seller.goto('/myinfo');
    await seller.getByTestId('tab-sellHistory').click();
    await seller.getByTestId('history-sell-history').first().waitFor();
    await step(seller, 'seller-sell-history');
    await seller.getByTestId('history-detail').first().click();
    await waitForPath(seller, '/view_details');
    await seller.getByTestId('action-complete').click();
    await waitForPath(seller, '/proceed');
    // the deliberate release (DECISIONS §11, §13): what was checked, the TxID, the password, a red confirm
    await seller.getByTestId('release-check-amount').check();
    await seller.getByTestId('release-check-name').check();
    await seller.getByTestId('proceed-txid').fill('  0xjourney0001  ');
    await seller.getByTestId('proceed-password').fill(s.password);
    await step(seller, 'seller-proceed');
    await seller.getByTestId('proceed-submit').click();
    await seller.getByTestId('release-sheet').waitFor();
    await seller.getByTestId('confirm-yes').click();
    await waitForPath(seller, '/myinfo');

    await walletTab(buyer);
    await expect
      .poll(() => buyer.getByTestId('wallet-item-balance').first().textContent())
      .toBe('0.0500 BTC');
    await step(buyer, 'buyer-wallet-with-coins');
  });

  it('the buyer withdraws to an external address; the operator marks it sent', async () => {
    await buyer.getByTestId('wallet-send').first().click();
    await waitForPath(buyer, '/withdraw');
    await buyer.getByTestId('withdraw-dest-EXTERNAL').click();
    await buyer.getByTestId('withdraw-address').fill(EXTERNAL_BTC);
    await buyer.getByTestId('withdraw-amount').fill('0.03');
    await step(buyer, 'buyer-withdraw');
    await buyer.getByTestId('withdraw-submit').click();
    await buyer.getByTestId('withdraw-password').fill(b.password);
    await step(buyer, 'buyer-withdraw-review');
    await buyer.getByTestId('withdraw-confirm').click();
    await waitForPath(buyer, '/wallet');
    await buyer.getByTestId('transfer-row').first().waitFor();
    await step(buyer, 'buyer-withdrawal-pending');

    await opsNav('withdrawals', '/ops/withdrawals');
    const send = ops.locator('[data-testid^="send-"]');
    await send.first().waitFor();
    expect(await send.count()).toBe(1);
    await send.first().click();
    await ops.getByTestId('confirm-txid').fill('9f2c4a1be0d7journey0002');
    await step(ops, 'ops-withdrawal-send');
    await confirmAction(ops, { txid: '9f2c4a1be0d7journey0002' });
    await expectToast(ops, 'marked as sent');
    await step(ops, 'ops-withdrawal-sent');

    await walletTab(buyer);
    await expect
      .poll(() => buyer.getByTestId('wallet-item-balance').first().textContent())
      .toBe('0.0200 BTC');
    await step(buyer, 'buyer-wallet-after-withdrawal');
  });

  it('the console’s ledger check is clean, and the audit log shows the operator’s work', async () => {
    await opsNav('ledger', '/ops/ledger');
    await ops.getByTestId('ledger-run').click();
    const result = ops.getByTestId('ledger-result');
    await result.waitFor();
    expect(await result.getAttribute('data-ok')).toBe('true');
    await step(ops, 'ops-ledger-clean');
    await opsNav('auditLog', '/ops/audit-log');
    for (const action of ['deposit.credit', 'listing.approve', 'withdrawal.complete']) {
      await ops.getByTestId('ops-audit-log').getByText(action, { exact: true }).waitFor();
    }
    await step(ops, 'ops-audit-log');

    const token = await ops.evaluate(() => window.sessionStorage.getItem('opsAccessToken'));
    const check = await http<{ ok: boolean; problems: string[] }>(
      server.baseUrl,
      'GET',
      '/ops/api/v1/ledger/check',
      token ?? '',
    );
    expect(check).toMatchObject({ ok: true, problems: [] });
    const withdrawals = await http<{ list: { amount: string; txid: string }[] }>(
      server.baseUrl,
      'GET',
      '/ops/api/v1/withdrawals?status=COMPLETED',
      token ?? '',
    );
    expect(withdrawals.list).toHaveLength(1);
    expectQty(withdrawals.list[0]?.amount ?? '0', '0.03');
    expect(errors).toEqual([]);
  });
});
