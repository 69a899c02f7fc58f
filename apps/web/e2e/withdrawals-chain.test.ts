import type { Browser, Page } from 'playwright-core';
import { type Address, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Anvil, startAnvil } from '../../api/test/nodes.ts';
import { startSigner, type TestSigner } from '../../api/test/signer.ts';
import { confirmAction, consoleLogin, DESK, newPage, OPERATOR, opsShot, PHONE } from './ops-kit.ts';
import { launchBrowser, newMobilePage, screenshot } from './support/browser.ts';
import { type E2EServer, startE2EServer } from './support/server.ts';
import {
  expectToast,
  type Member,
  operatorToken,
  signedUpMember,
  switchLanguage,
  uiLogin,
} from './trade-kit.ts';

/**
 * Withdrawals that go out by themselves (DECISIONS §18), walked in the browser on a real Ethereum node (Anvil)
 * with the real signer process (apps/signer, its own process, the TEST seed) and the API's payout worker: a new
 * member deposits to the address the screen shows, withdraws 0.2 ETH to another Anvil account and sees it 완료
 * with its TxID and explorer link, no operator involved; then 0.6 ETH, above WITHDRAW_AUTO_MAX_ETH (0.5), waits
 * (대기) until an operator approves it in the console (the button, the confirmation naming member, coin, amount
 * and destination), and is paid. The recipient's balance on Anvil grows by exactly each amount. Last, 0.8 ETH is
 * above the signer's own limit (SIGNER_MAX_TX_ETH 0.7): approved, the signer refuses it, the console shows why
 * under the Approved tab, and the operator rejects it with a reason: the member sees 거절 and has the coins back.
 */
let server: E2EServer;
let browser: Browser;
let anvil: Anvil;
let signer: TestSigner;
let member: Member;
let page: Page;
let recipient: Address;

const EXPLORER = 'https://etherscan.io/tx/{txid}';
const rows = (p: Page) => p.getByTestId('transfer-row');
const withdrawalRows = (p: Page) => p.locator('[data-testid="transfer-row"][data-type="WITHDRAW"]');

beforeAll(async () => {
  [anvil, signer] = await Promise.all([
    startAnvil(),
    startSigner({ env: { CHAIN_NETWORK: 'regtest', SIGNER_MAX_TX_ETH: '0.7' } }),
  ]);
  recipient = anvil.accounts[3] as Address;
  server = await startE2EServer({
    // SIGNER_URL, SIGNER_TOKEN, the signer's XPUB_<COIN> and CHAIN_NETWORK
    ...signer.apiEnv,
    CHAIN_RPC_ETH: anvil.url,
    CHAIN_CONFIRMATIONS_ETH: '1',
    CHAIN_START_HEIGHT_ETH: String(await anvil.height()),
    CHAIN_POLL_MS: '200',
    CHAIN_TIMEOUT_MS: '5000',
    WITHDRAW_AUTO_MAX_ETH: '0.5',
    // a withdrawal asked before the deposit's sweep reached the hot address is tried again within the wait below;
    // long enough that the refused one is not being signed again while the operator rejects it (409 then)
    WITHDRAW_RETRY_SEC: '20',
    EXPLORER_TX_URL_ETH: EXPLORER,
    OPERATOR_LOGIN_ID: OPERATOR.loginId,
    OPERATOR_PASSWORD: OPERATOR.password,
  });
  browser = await launchBrowser();
  member = await signedUpMember(server);
  const opened = await newMobilePage(browser, server.baseUrl);
  // the app keeps its live stream closed under automation unless asked (lib/event-stream.ts)
  await opened.context.addInitScript(() => window.localStorage.setItem('liveEvents', 'on'));
  page = opened.page;
  await uiLogin(page, member);
  await switchLanguage(page, 'kr');
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await Promise.all([anvil?.stop(), signer?.stop()]);
});

async function openWallet(p: Page, action: 'detail' | 'send' | 'receive'): Promise<void> {
  await p.goto('/myinfo');
  await p.getByTestId('tab-wallet').click();
  await p.locator('[data-testid="wallet-item"][data-coin="ETH"]').getByTestId(`wallet-${action}`).click();
}

/** Through the withdraw screen and its review sheet (password step-up), as a member does it. */
async function withdrawInUi(p: Page, to: string, amount: string): Promise<void> {
  await openWallet(p, 'send');
  await p.waitForURL((u) => u.pathname === '/withdraw');
  await p.getByTestId('withdraw-dest-EXTERNAL').click();
  await p.getByTestId('withdraw-address').fill(to);
  await p.getByTestId('withdraw-amount').fill(amount);
  await p.getByTestId('withdraw-submit').click();
  await p.getByTestId('withdraw-review').waitFor();
  await p.getByTestId('withdraw-password').fill(member.password);
  await p.getByTestId('withdraw-confirm').click();
  await expectToast(p, '출금 신청이 완료됐어요.');
  await p.waitForURL((u) => u.pathname === '/wallet');
}

const balance = (a: Address) => anvil.client.getBalance({ address: a });

describe('a new member: deposit, then a withdrawal paid with no operator', () => {
  it('deposits to the address the screen shows and sees it credited', async () => {
    await page.goto('/create_wallet');
    await page.getByTestId('create-coin-ETH').click();
    await page.getByTestId('create-submit').click();
    await expectToast(page, '지갑이 성공적으로 생성됐어요!');
    await openWallet(page, 'receive');
    const shown = (await page.getByTestId('deposit-address').textContent())?.trim() ?? '';
    expect(shown).toMatch(/^0x[0-9a-fA-F]{40}$/);
    await anvil.pay(shown as Address, parseEther('2'));
    await openWallet(page, 'detail');
    await page.waitForURL((u) => u.pathname === '/wallet');
    await expect
      .poll(() => page.getByTestId('wallet-balance').textContent(), { timeout: 30_000 })
      .toBe('2.0000 ETH'); // wallet balances show at least 4 decimals
  });

  it('withdraws 0.2 ETH to another Anvil account: 완료 with its TxID and explorer link, live', async () => {
    const before = await balance(recipient);
    await withdrawInUi(page, recipient, '0.2');
    const row = withdrawalRows(page).first();
    await row.waitFor();
    // a mark on this document: a reload would lose it (the status must arrive live)
    await page.evaluate(() => {
      (window as unknown as { stillHere: boolean }).stillHere = true;
    });
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 60_000 }).toBe('COMPLETED');
    expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
    expect(await row.getByTestId('transfer-kind').textContent()).toContain('완료');
    const txid = (await row.getAttribute('data-txid')) ?? '';
    expect(txid).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await row.getByTestId('transfer-explorer').getAttribute('href')).toBe(
      EXPLORER.replace('{txid}', txid),
    );
    expect(await balance(recipient)).toBe(before + parseEther('0.2'));
    const receipt = await anvil.client.getTransactionReceipt({ hash: txid as `0x${string}` });
    expect(receipt.status).toBe('success');
    await expect.poll(() => page.getByTestId('wallet-balance').textContent()).toBe('1.8000 ETH');
    await screenshot(page, 'wallet-withdrawal-completed', 'kr', { idle: false });
    await switchLanguage(page, 'en');
    await expect
      .poll(() => withdrawalRows(page).first().getByTestId('transfer-kind').textContent())
      .toContain('Completed');
    await screenshot(page, 'wallet-withdrawal-completed', 'en', { idle: false });
    await switchLanguage(page, 'kr');
  });
});

describe('a large withdrawal waits for an operator, who approves it in the console', () => {
  let ops: Page;
  let before: bigint;

  it('0.6 ETH (above WITHDRAW_AUTO_MAX_ETH 0.5) stays 대기', async () => {
    before = await balance(recipient);
    await withdrawInUi(page, recipient, '0.6');
    const row = withdrawalRows(page).first();
    await expect.poll(() => row.getAttribute('data-status')).toBe('PENDING');
    expect(await row.getByTestId('transfer-kind').textContent()).toContain('대기');
    await screenshot(page, 'wallet-withdrawal-pending', 'kr', { idle: false });
    await switchLanguage(page, 'en');
    await withdrawalRows(page).first().getByTestId('withdrawal-note').waitFor();
    await screenshot(page, 'wallet-withdrawal-pending', 'en', { idle: false });
    await switchLanguage(page, 'kr');
    await expect.poll(() => rows(page).count()).toBeGreaterThanOrEqual(3);
  });

  it('the console shows custody and the queue; the operator approves after a confirmation naming it', async () => {
    ops = (await newPage(browser, server.baseUrl, DESK)).page;
    await consoleLogin(ops, OPERATOR);
    await ops.getByTestId('ops-nav-withdrawals').click();
    const eth = ops.getByTestId('custody-ETH');
    await expect.poll(() => eth.getByTestId('custody-liabilities').textContent()).toBe('1.8 ETH');
    // nothing in cold storage while members hold coins: below COLD_SHARE_MIN_PCT, in the warning colour
    expect(await eth.getAttribute('data-breach')).toBe('yes');
    const queued = await server.t.call<{ list: { withdrawalId: number; amount: string }[] }>(
      'GET',
      '/ops/api/v1/withdrawals?status=PENDING',
      { token: await operatorToken(server) },
    );
    const id = queued.body.returnData.list.find((w) => w.amount === '0.6')?.withdrawalId;
    expect(id).toBeDefined();
    const approve = ops.getByTestId(`approve-${id}`);
    await approve.waitFor();
    for (const lang of ['en', 'kr'] as const) {
      await ops.evaluate((l) => window.localStorage.setItem('language', l), lang);
      await ops.reload();
      await ops.getByTestId(`approve-${id}`).waitFor();
      await ops.getByTestId('custody-ETH').getByTestId('custody-hot').waitFor();
      await opsShot(ops, `withdrawals-queue-${lang}`);
      await ops.getByTestId('custody-ETH').scrollIntoViewIfNeeded();
      await opsShot(ops, `withdrawals-custody-${lang}`);
      await ops.setViewportSize(PHONE);
      await ops.evaluate(() => window.scrollTo(0, 0));
      await opsShot(ops, `withdrawals-queue-phone-${lang}`);
      await ops.getByTestId('custody-ETH').scrollIntoViewIfNeeded();
      await opsShot(ops, `withdrawals-custody-phone-${lang}`);
      await ops.setViewportSize(DESK);
    }
    await ops.getByTestId(`approve-${id}`).click();
    const dialog = ops.getByTestId('confirm-dialog');
    await dialog.waitFor();
    const text = (await dialog.textContent()) ?? '';
    expect(text).toContain(member.loginId);
    expect(text).toContain('0.6 ETH');
    expect(text).toContain(recipient);
    await opsShot(ops, 'withdrawals-approve-kr');
    await confirmAction(ops);
    await expectToast(ops, `#${id}`);

    // the member sees it sent and then 완료, live
    const row = withdrawalRows(page).first();
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 60_000 }).toBe('COMPLETED');
    expect(await row.getByTestId('transfer-kind').textContent()).toContain('완료');
    expect(await balance(recipient)).toBe(before + parseEther('0.6'));
    await expect.poll(() => page.getByTestId('wallet-balance').textContent()).toBe('1.2000 ETH');

    // the operator's queue: COMPLETED with the txid linked to the explorer
    await ops.getByTestId('filter-COMPLETED').click();
    const link = ops.getByTestId(`withdrawal-explorer-${id}`);
    await link.waitFor();
    const txid = (await link.textContent()) ?? '';
    expect(await link.getAttribute('href')).toBe(EXPLORER.replace('{txid}', txid));
    await opsShot(ops, 'withdrawals-completed-kr');
    await server.t.assertLedger();
  });
});

describe("a withdrawal above the signer's limit: the reason shown, then rejected with a reason", () => {
  it("stays approved with the signer's refusal in the console; rejecting refunds the member", async () => {
    await withdrawInUi(page, recipient, '0.8');
    const opToken = await operatorToken(server);
    const queued = await server.t.call<{ list: { withdrawalId: number; amount: string }[] }>(
      'GET',
      '/ops/api/v1/withdrawals?status=PENDING',
      { token: opToken },
    );
    const id = queued.body.returnData.list.find((w) => w.amount === '0.8')?.withdrawalId;
    expect(id).toBeDefined();
    const before = await balance(recipient);
    const ops = (await newPage(browser, server.baseUrl, DESK)).page;
    await consoleLogin(ops, OPERATOR);
    await ops.getByTestId('ops-nav-withdrawals').waitFor();
    await ops.evaluate(() => window.localStorage.setItem('language', 'en'));
    await ops.reload();
    await ops.getByTestId('ops-nav-withdrawals').click();
    await ops.getByTestId(`approve-${id}`).click();
    await confirmAction(ops);
    await ops.getByTestId('filter-APPROVED').click();
    const error = ops.getByTestId(`withdrawal-error-${id}`);
    await expect
      .poll(
        async () => {
          await ops.getByTestId('filter-APPROVED').click();
          return (await error.count()) > 0 ? error.textContent() : '';
        },
        { timeout: 60_000, interval: 2_000 },
      )
      .toContain('SIGNER_LIMIT_TX');
    expect(await error.textContent()).toContain("Above the signer's per-transaction limit");
    await opsShot(ops, 'withdrawals-signer-limit-en');
    await ops.getByTestId(`reject-${id}`).click();
    const dialog = ops.getByTestId('confirm-dialog');
    await dialog.waitFor();
    const text = (await dialog.textContent()) ?? '';
    expect(text).toContain(member.loginId);
    expect(text).toContain('0.8 ETH');
    expect(text).toContain(recipient);
    expect(text).toContain('SIGNER_LIMIT_TX');
    await opsShot(ops, 'withdrawals-reject-en');
    await confirmAction(ops, { reason: 'Above the signer limit; asked the member to split it' });
    await expectToast(ops, `#${id}`);
    const row = withdrawalRows(page).first();
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 30_000 }).toBe('REJECTED');
    expect(await row.getByTestId('transfer-kind').textContent()).toContain('거절');
    await expect.poll(() => page.getByTestId('wallet-balance').textContent()).toBe('1.2000 ETH');
    expect(await balance(recipient)).toBe(before);
    await server.t.assertLedger();
  });
});
