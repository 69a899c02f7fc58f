import { receiveQty } from '@p2p/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiMember,
  apiLogin,
  apiMember,
  apiOk,
  apiWallet,
  confirmAction,
  consoleLogin,
  expectQty,
  expectToast,
  newPage,
  OPERATOR,
  opsShot,
  startOpsServer,
  verifyPurchasePhone,
  walletOf,
} from './ops-kit.ts';
import { waitForPath } from './support/flows.ts';
import { e2eSuite } from './support/suite.ts';

const EXTERNAL_BTC = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';

/**
 * The operator console at 1280x800 against the real API on a fresh database: member
 * tokens refused, deposit credited, listings approved and rejected, an order resolved, withdrawals sent and
 * refunded, a member suspended and restored, the audit log and a clean ledger check. The steps share one
 * console session and build on each other.
 */
describe('operator console', () => {
  const e2e = e2eSuite(startOpsServer);
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let seller: ApiMember;
  let buyer: ApiMember;
  let opsToken: string;
  const ids: { btcListing?: number; ethListing?: number } = {};

  beforeAll(async () => {
    ({ context, page, errors } = await newPage(e2e.browser, e2e.server.baseUrl));
    opsToken = await apiLogin(e2e.server, OPERATOR.loginId, OPERATOR.password);
    seller = await apiMember(e2e.server);
    buyer = await apiMember(e2e.server);
    await apiWallet(e2e.server, seller.token, 'BTC');
    await apiWallet(e2e.server, seller.token, 'ETH');
    await apiWallet(e2e.server, buyer.token, 'BTC');
  });

  afterAll(async () => {
    await context?.close();
  });

  const nav = async (key: string, path: string) => {
    await page.getByTestId(`ops-nav-${key}`).click();
    await waitForPath(page, path);
  };

  it('refuses a member at /ops/login, keeps no token, and leaves a member session alone', async () => {
    await page.goto('/');
    await page.evaluate((token) => window.localStorage.setItem('accessToken', token), seller.token);
    // A member session is not an operator session: the console asks for its own login.
    await page.goto('/ops/listings');
    await waitForPath(page, '/ops/login');
    await consoleLogin(page, seller);
    await expect
      .poll(() => page.getByTestId('ops-login-error').textContent())
      .toContain('member account, not an operator');
    await opsShot(page, 'login-refused');
    expect(await page.evaluate(() => window.sessionStorage.getItem('opsAccessToken'))).toBeNull();
    expect(new URL(page.url()).pathname).toBe('/ops/login');

    // Logged in, the operator lands on the page first asked for.
    await consoleLogin(page, OPERATOR);
    await waitForPath(page, '/ops/listings');
    await expect.poll(() => page.getByTestId('ops-operator').textContent()).toBe(OPERATOR.loginId);
    expect(await page.evaluate(() => window.sessionStorage.getItem('opsAccessToken'))).toBeTruthy();
    expect(await page.evaluate(() => window.localStorage.getItem('accessToken'))).toBe(seller.token);
    await nav('root', '/ops');
    await expect.poll(() => page.getByTestId('summary-members').textContent()).toContain('3');
    await opsShot(page, 'overview');
  });

  it('credits deposits (decimal strings, checked; a repeated TxID moves nothing)', async () => {
    await nav('deposits', '/ops/deposits');
    const sellerBtc = await walletOf(e2e.server, seller.token, 'BTC');
    const form = page.getByTestId('deposit-form');
    await form.getByLabel('Coin').selectOption('BTC');
    await form.getByLabel('Deposit address').fill(sellerBtc.address);
    await form.getByLabel('Amount').fill('0.123456789');
    await form.getByLabel('Chain TxID').fill('e2e-btc-deposit-1');
    await page.getByTestId('deposit-submit').click();
    await form.getByText('with at most 8 decimals').waitFor();
    await form.getByLabel('Amount').fill('2.5');
    await page.getByTestId('deposit-submit').click();
    await page.getByTestId('confirm-dialog').waitFor();
    await opsShot(page, 'deposit-confirm');
    await confirmAction(page);
    await expectToast(page, `Credited 2.5 BTC to member #${seller.id}`);
    expectQty((await walletOf(e2e.server, seller.token, 'BTC')).balance, '2.5');

    const sellerEth = await walletOf(e2e.server, seller.token, 'ETH');
    await form.getByLabel('Coin').selectOption('ETH');
    await form.getByLabel('Deposit address').fill(sellerEth.address);
    await form.getByLabel('Amount').fill('10');
    await form.getByLabel('Chain TxID').fill('e2e-eth-deposit-1');
    await page.getByTestId('deposit-submit').click();
    await confirmAction(page);
    await expectToast(page, 'Credited 10 ETH');

    // The same coin + TxID + index again: answered as already credited, the balance unchanged.
    await form.getByLabel('Coin').selectOption('BTC');
    await form.getByLabel('Deposit address').fill(sellerBtc.address);
    await form.getByLabel('Amount').fill('2.5');
    await form.getByLabel('Chain TxID').fill('e2e-btc-deposit-1');
    await page.getByTestId('deposit-submit').click();
    await confirmAction(page);
    await page.getByTestId('deposit-result').getByText('Already credited earlier').waitFor();
    expectQty((await walletOf(e2e.server, seller.token, 'BTC')).balance, '2.5');
    await expect.poll(() => page.getByTestId('ops-recent-deposits').locator('tbody tr').count()).toBe(2);
    await opsShot(page, 'deposit');
  });

  it('approves one pending listing and rejects another with a reason (escrow back)', async () => {
    const listing = async (coin: 'BTC' | 'ETH', minQty: string, maxQty: string, unitPriceKrw: number) => {
      const w = await walletOf(e2e.server, seller.token, coin);
      const body = {
        walletId: w.id,
        minQty,
        maxQty,
        unitPriceKrw,
        bankName: 'KB국민은행',
        accountNo: '123456789012',
        stepUp: { password: seller.password },
      };
      return (
        await apiOk<{ listingId: number }>(e2e.server, 'POST', '/api/v1/sell-listings', seller.token, body)
      ).listingId;
    };
    ids.btcListing = await listing('BTC', '0.01', '1', 100_000_000);
    ids.ethListing = await listing('ETH', '0.1', '5', 4_000_000);
    expectQty((await walletOf(e2e.server, seller.token, 'ETH')).balance, '5');

    await nav('listings', '/ops/listings');
    await page.getByTestId(`listing-row-${ids.ethListing}`).waitFor();
    await page.getByTestId(`listing-row-${ids.btcListing}`).waitFor();
    await opsShot(page, 'listings');

    await page.getByTestId(`approve-${ids.btcListing}`).click();
    await confirmAction(page);
    await expectToast(page, `Listing #${ids.btcListing} approved.`);
    await page.getByTestId(`listing-row-${ids.btcListing}`).waitFor({ state: 'detached' });
    const open = await apiOk<{ list: { listingId: number }[] }>(
      e2e.server,
      'GET',
      '/api/v1/sell-listings?coin=BTC',
      buyer.token,
    );
    expect(open.list.map((l) => l.listingId)).toContain(ids.btcListing);

    await page.getByTestId(`reject-${ids.ethListing}`).click();
    await page.getByTestId('confirm-submit').click();
    await page.getByTestId('confirm-dialog').getByText('This field is required.').waitFor();
    await page.getByTestId('confirm-reason').fill('Price far above the market');
    await opsShot(page, 'listing-reject');
    await confirmAction(page);
    await expectToast(page, `Listing #${ids.ethListing} rejected`);
    const eth = await walletOf(e2e.server, seller.token, 'ETH');
    expectQty(eth.balance, '10');
    expectQty(eth.escrowBalance, '0');
    await page.getByTestId('filter-REJECTED').click();
    await page.getByTestId(`listing-row-${ids.ethListing}`).getByText('Price far above the market').waitFor();
  });

  it('finds a member’s orders and resolves them: complete with a TxID, cancel', async () => {
    const listingId = ids.btcListing ?? 0;
    const wallet = await walletOf(e2e.server, buyer.token, 'BTC');
    // each purchase phone check allows exactly one order (DECISIONS §11)
    const order = async (krw: number) => {
      await verifyPurchasePhone(e2e.server, buyer);
      return (
        await apiOk<{ orderId: number }>(e2e.server, 'POST', '/buy-orders', buyer.token, {
          listingId,
          krwAmount: krw,
          requestQty: receiveQty(krw, 100_000_000),
          destType: 'INTERNAL',
          destWalletId: wallet.id,
        })
      ).orderId;
    };
    const toComplete = await order(1_000_000);
    const toCancel = await order(2_000_000);

    await nav('orders', '/ops/orders');
    await page.getByTestId('orders-member-id').fill(String(buyer.id));
    await page.getByTestId('orders-member-apply').click();
    await page.getByTestId(`order-row-${toCancel}`).waitFor();
    await page.getByTestId(`order-row-${toComplete}`).waitFor();
    await opsShot(page, 'orders');

    await page.getByTestId(`complete-${toComplete}`).click();
    await confirmAction(page, { reason: 'Seller confirmed the deposit by phone', txid: 'bank-ref-778' });
    await expectToast(page, `Order #${toComplete} completed.`);
    await page.getByTestId(`cancel-${toCancel}`).click();
    await confirmAction(page, { reason: 'Buyer never paid' });
    await expectToast(page, `Order #${toCancel} canceled.`);
    await page.getByTestId(`order-row-${toCancel}`).getByText('Canceled').waitFor();
    expectQty((await walletOf(e2e.server, buyer.token, 'BTC')).balance, '0.01');
    const orders = await apiOk<{ list: { orderId: number; status: string; txid: string | null }[] }>(
      e2e.server,
      'GET',
      `/ops/api/v1/orders?memberId=${buyer.id}`,
      opsToken,
    );
    const byId = new Map(orders.list.map((o) => [o.orderId, o]));
    expect(byId.get(toComplete)).toMatchObject({ status: 'COMPLETED', txid: 'bank-ref-778' });
    expect(byId.get(toCancel)?.status).toBe('CANCELED');
  });

  it('marks one external withdrawal sent and rejects another (refund visible through the API)', async () => {
    const btc = await walletOf(e2e.server, seller.token, 'BTC');
    expectQty(btc.balance, '1.5');
    const withdraw = async (amount: string) =>
      (
        await apiOk<{ transferId: number }>(e2e.server, 'POST', '/transfer/request', seller.token, {
          fromWalletId: btc.id,
          destType: 'EXTERNAL',
          amount,
          destExternalAddress: EXTERNAL_BTC,
          stepUp: { password: seller.password },
        })
      ).transferId;
    await withdraw('0.2');
    await withdraw('0.3');
    expectQty((await walletOf(e2e.server, seller.token, 'BTC')).balance, '1');

    await nav('withdrawals', '/ops/withdrawals');
    const rows = page.getByTestId('ops-withdrawals').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    await opsShot(page, 'withdrawals');
    const ids = await rows.evaluateAll((trs) =>
      trs.map((tr) => Number((tr.getAttribute('data-testid') ?? '').replace('withdrawal-row-', ''))),
    );
    const [sendId, rejectId] = ids;
    await page.getByTestId(`send-${sendId}`).click();
    await page.getByTestId('confirm-submit').click();
    await page.getByTestId('confirm-dialog').getByText('Enter the TxID').waitFor();
    await confirmAction(page, { txid: 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90' });
    await expectToast(page, `Withdrawal #${sendId} marked as sent.`);
    await page.getByTestId(`reject-${rejectId}`).click();
    await confirmAction(page, { reason: 'Destination flagged by compliance' });
    await expectToast(page, `Withdrawal #${rejectId} rejected`);
    await expect.poll(() => rows.count()).toBe(1);
    await page.getByTestId('ops-withdrawals').getByText('Nothing here.').waitFor();

    expectQty((await walletOf(e2e.server, seller.token, 'BTC')).balance, '1.3');
    const history = await apiOk<{ list: { transferId: number; status: string; txid: string | null }[] }>(
      e2e.server,
      'GET',
      `/transfer?walletId=${btc.id}`,
      seller.token,
    );
    const byId = new Map(history.list.map((x) => [x.transferId, x]));
    expect(byId.get(sendId ?? 0)?.status).toBe('COMPLETED');
    expect(byId.get(rejectId ?? 0)?.status).toBe('REJECTED');
    await page.getByTestId('filter-COMPLETED').click();
    await page.getByTestId(`withdrawal-row-${sendId}`).waitFor();
  });

  it('suspends a member with a reason and lifts it', async () => {
    await nav('members', '/ops/members');
    await page.getByTestId('members-search').fill(buyer.loginId);
    await page.getByTestId('members-search-submit').click();
    const row = page.getByTestId(`member-row-${buyer.loginId}`);
    await row.waitFor();
    await expect.poll(() => page.getByTestId('ops-members').locator('tbody tr').count()).toBe(1);
    await page.getByTestId(`suspend-${buyer.loginId}`).click();
    await confirmAction(page, { reason: 'Chargeback investigation' });
    await expectToast(page, `${buyer.loginId} suspended.`);
    await row.getByText('Suspended', { exact: true }).waitFor();
    await opsShot(page, 'members');
    const refused = await e2e.server.t.call('POST', '/api/v1/auth/login', {
      body: { loginId: buyer.loginId, password: buyer.password },
    });
    expect([refused.status, refused.body.returnMessage]).toEqual([403, 'MEMBER_SUSPENDED']);

    await page.getByTestId(`unsuspend-${buyer.loginId}`).click();
    await confirmAction(page);
    await expectToast(page, `${buyer.loginId} can log in again.`);
    await row.getByText('Active', { exact: true }).waitFor();
    buyer.token = await apiLogin(e2e.server, buyer.loginId, buyer.password);
  });

  it('shows every action in the audit log, page by page', async () => {
    await nav('auditLog', '/ops/audit-log');
    const table = page.getByTestId('ops-audit-log');
    for (const action of [
      'deposit.credit',
      'listing.approve',
      'listing.reject',
      'order.complete',
      'order.cancel',
      'withdrawal.complete',
      'withdrawal.reject',
      'member.suspend',
      'member.unsuspend',
    ]) {
      await table.getByText(action, { exact: true }).first().waitFor();
    }
    await table.getByRole('cell', { name: 'Chargeback investigation', exact: true }).waitFor();
    await expect.poll(() => page.getByTestId('pager-info').textContent()).toContain('10 in all');
    await opsShot(page, 'audit-log');

    // 12 more credits make 22 entries: page 1 holds 20, "Next" shows the two oldest, "Previous" returns.
    const btc = await walletOf(e2e.server, seller.token, 'BTC');
    for (let i = 0; i < 12; i++) {
      await apiOk(e2e.server, 'POST', '/ops/api/v1/deposits', opsToken, {
        coinCode: 'BTC',
        address: btc.address,
        amount: '0.001',
        txid: `e2e-paging-${i}`,
      });
    }
    await page.reload();
    const rows = table.locator('tbody tr');
    await expect.poll(() => page.getByTestId('pager-info').textContent()).toBe('Page 1 · 22 in all');
    expect(await rows.count()).toBe(20);
    await page.getByTestId('pager-next').click();
    await expect.poll(() => page.getByTestId('pager-info').textContent()).toBe('Page 2 · 22 in all');
    await expect.poll(() => rows.count()).toBe(2);
    await table.getByText('e2e-btc-deposit-1', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect.poll(() => rows.count()).toBe(20);
  });

  it('runs the ledger check: clean', async () => {
    await nav('ledger', '/ops/ledger');
    await page.getByTestId('ledger-run').click();
    const result = page.getByTestId('ledger-result');
    await result.waitFor();
    expect(await result.getAttribute('data-ok')).toBe('true');
    await result.getByText('Ledger is balanced').waitFor();
    await opsShot(page, 'ledger');
    await e2e.server.t.assertLedger();
    expect(errors).toEqual([]);
  });
});
