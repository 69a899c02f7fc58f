import type { Browser, Page } from 'playwright-core';
import type { Hex } from 'viem';
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeRippled,
  randomXrpAddress,
  startFakeRippled,
  xrpPayment,
} from '../../api/test/fake-rippled.ts';
import { type Anvil, startAnvil } from '../../api/test/nodes.ts';
import { confirmAction, consoleLogin, OPERATOR, opsShot } from './ops-kit.ts';
import { launchBrowser, newMobilePage, screenshot } from './support/browser.ts';
import { type E2EServer, startE2EServer } from './support/server.ts';
import {
  apiOk,
  createWallet,
  expectQty,
  expectToast,
  type Member,
  operatorToken,
  signedUpMember,
  switchLanguage,
  uiLogin,
  walletOf,
} from './trade-kit.ts';

/**
 * Deposits that arrive by themselves (DECISIONS §17), walked in the browser on real nodes: Anvil for ETH (real
 * blocks, a real reorg) and the fake rippled (real HTTP, the documented shapes) for XRP. A member watches a
 * deposit confirm "1/2" and complete live, without a reload; an operator reads the chain status and assigns an
 * XRP payment without a tag to a member, who is then credited.
 */
let server: E2EServer;
let browser: Browser;
let anvil: Anvil;
let rippled: FakeRippled;
const PLATFORM = randomXrpAddress();

beforeAll(async () => {
  anvil = await startAnvil();
  rippled = await startFakeRippled();
  // the XRP scan starts at this ledger: the fake node has nothing below it
  const xrpStart = rippled.addLedger().ledger_index;
  server = await startE2EServer({
    CHAIN_NETWORK: 'regtest',
    CHAIN_RPC_ETH: anvil.url,
    CHAIN_CONFIRMATIONS_ETH: '2',
    CHAIN_START_HEIGHT_ETH: String(await anvil.height()),
    CHAIN_RPC_XRP: rippled.url,
    XRP_DEPOSIT_ACCOUNT: PLATFORM,
    CHAIN_START_HEIGHT_XRP: String(xrpStart),
    DEPOSIT_MIN_XRP: '1',
    CHAIN_POLL_MS: '200',
    CHAIN_TIMEOUT_MS: '2000',
    OPERATOR_LOGIN_ID: OPERATOR.loginId,
    OPERATOR_PASSWORD: OPERATOR.password,
  });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await anvil?.stop();
  await rippled?.close();
});

/** The member's wallet screen of `coin`, from the wallet tab of /myinfo as a member gets there. */
async function openWallet(page: Page, coin: string): Promise<void> {
  await page.goto('/myinfo');
  await page.getByTestId('tab-wallet').click();
  await page.locator(`[data-testid="wallet-item"][data-coin="${coin}"]`).getByTestId('wallet-detail').click();
  await page.waitForURL((u) => u.pathname === '/wallet');
}

const rowOf = (page: Page, txid: string) => page.locator(`[data-testid="transfer-row"][data-txid="${txid}"]`);

describe('a member watches a chain deposit arrive (ETH on Anvil)', () => {
  let member: Member;
  let page: Page;
  let address: Hex;
  let txid: Hex;

  beforeAll(async () => {
    member = await signedUpMember(server);
    address = (await createWallet(server, member.token, 'ETH')).address as Hex;
    const opened = await newMobilePage(browser, server.baseUrl);
    // the app keeps its live stream closed under automation unless asked (lib/event-stream.ts)
    await opened.context.addInitScript(() => window.localStorage.setItem('liveEvents', 'on'));
    page = opened.page;
    await uiLogin(page, member);
    await switchLanguage(page, 'kr');
  });

  it('shows the deposit confirming "1/2 확인" as soon as it is mined, with amount, coin and TxID', async () => {
    await openWallet(page, 'ETH');
    await page.getByTestId('wallet-balance').waitFor();
    txid = await anvil.pay(address, parseEther('0.75'));
    const row = rowOf(page, txid);
    await row.waitFor();
    await expect.poll(() => row.getByTestId('transfer-confirmations').textContent()).toBe('1/2 확인');
    expect(await row.getAttribute('data-status')).toBe('PENDING');
    expect(await row.getByTestId('transfer-amount').textContent()).toBe('+0.75 ETH');
    const shown = (await row.getByTestId('transfer-txid').textContent()) ?? '';
    expect(shown).toContain(txid.slice(0, 6));
    expect(shown).toContain(txid.slice(-5));
    expect(await row.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('1');
    // not in the balance yet
    expect(await page.getByTestId('wallet-balance').textContent()).toBe('0.0000 ETH');
    // the copy button is a 44 px target
    const box = await row.getByTestId('transfer-txid-copy').boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(44);
    expect(box?.width).toBeGreaterThanOrEqual(44);

    await screenshot(page, 'wallet-deposit-confirming', 'kr', { idle: false });
    await switchLanguage(page, 'en');
    await expect
      .poll(() => row.getByTestId('transfer-confirmations').textContent())
      .toBe('1/2 confirmations');
    await screenshot(page, 'wallet-deposit-confirming', 'en', { idle: false });
    await switchLanguage(page, 'kr');
    await row.waitFor();
  });

  it('turns completed live at the second confirmation, without a reload, in place', async () => {
    const row = rowOf(page, txid);
    await row.getByTestId('transfer-confirmations').waitFor();
    const before = await row.boundingBox();
    // a mark on this document: a reload would lose it
    await page.evaluate(() => {
      (window as unknown as { stillHere: boolean }).stillHere = true;
    });
    await anvil.mine(1);
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 15_000 }).toBe('COMPLETED');
    await expect.poll(() => page.getByTestId('wallet-balance').textContent()).toBe('0.7500 ETH');
    expect(await row.getByTestId('transfer-confirmations').textContent()).toBe('2/2 확인');
    expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
    // the row kept its height: confirming and credited take the same room
    expect((await row.boundingBox())?.height).toBe(before?.height);
    expectQty((await walletOf(server, member.token, 'ETH')).balance, '0.75');
    await server.t.assertLedger();
    await screenshot(page, 'wallet-deposit-completed', 'kr', { idle: false });
  });

  it('lists DEPOSIT_CREDITED in the notifications, leading to the wallet', async () => {
    await page.goto('/notifications');
    const item = page.locator('[data-testid="notification"][data-kind="DEPOSIT_CREDITED"]').first();
    await item.waitFor();
    expect(await item.textContent()).toContain('0.75 ETH 입금이 확인되어 지갑에 들어왔어요.');
    await item.getByTestId('notification-open').click();
    await page.waitForURL((u) => u.pathname === '/wallet');
    await expect.poll(() => page.getByTestId('wallet-balance').textContent()).toBe('0.7500 ETH');
  });

  it('explains a deposit that a reorganization dropped, and never credits it', async () => {
    await openWallet(page, 'ETH');
    const snapshot = await anvil.snapshot();
    const dropped = await anvil.pay(address, parseEther('0.3'));
    const row = rowOf(page, dropped);
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 15_000 }).toBe('PENDING');
    // the block with the payment leaves the chain; a longer one without it takes its place
    await anvil.revert(snapshot);
    await anvil.mine(3);
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 15_000 }).toBe('DROPPED');
    expect(await row.getByTestId('transfer-note').textContent()).toContain('블록체인에서 빠져');
    expect(await page.getByTestId('wallet-balance').textContent()).toBe('0.7500 ETH');
    await screenshot(page, 'wallet-deposit-dropped', 'kr', { idle: false });
    await switchLanguage(page, 'en');
    await row.getByTestId('transfer-note').waitFor();
    await screenshot(page, 'wallet-deposit-dropped', 'en', { idle: false });
    await switchLanguage(page, 'kr');
    await server.t.assertLedger();
  });
});

describe('an operator reads the chain and assigns an unmatched XRP payment', () => {
  let member: Member;
  let ops: Page;

  beforeAll(async () => {
    member = await signedUpMember(server);
    await createWallet(server, member.token, 'XRP');
    ops = (await newMobilePage(browser, server.baseUrl)).page;
    await consoleLogin(ops, OPERATOR);
    await ops.getByTestId('ops-nav-chain').waitFor();
  });

  it('shows each coin: ETH and XRP watched with their heights, the others not configured', async () => {
    await ops.getByTestId('ops-nav-chain').click();
    const eth = ops.getByTestId('chain-status-ETH');
    await expect.poll(() => eth.getAttribute('data-health'), { timeout: 15_000 }).toBe('up');
    const tip = await anvil.height();
    await expect.poll(() => eth.getByTestId('chain-node').textContent()).toBe(String(tip));
    await expect.poll(() => eth.getByTestId('chain-scanned').textContent()).toBe(String(tip));
    expect(await eth.getByTestId('chain-lag').textContent()).toBe('0 blocks');
    expect(await ops.getByTestId('chain-status-XRP').getAttribute('data-health')).toBe('up');
    expect(await ops.getByTestId('chain-status-BTC').getAttribute('data-health')).toBe('off');
    expect(await ops.getByTestId('chain-status-TRX').getAttribute('data-health')).toBe('off');
  });

  it('assigns a payment without a tag to the member found by login ID, after a confirmation; the member is credited', async () => {
    const ledger = rippled.addLedger([xrpPayment({ to: PLATFORM, amount: '12500000' })]);
    const hash = ledger.transactions[0]?.hash ?? '';
    const opToken = await operatorToken(server);
    const payment = await (async () => {
      for (let i = 0; i < 100; i++) {
        const queue = await apiOk<{ list: { id: number; txid: string }[] }>(
          server,
          'GET',
          '/ops/api/v1/chain/unmatched',
          opToken,
        );
        const found = queue.list.find((p) => p.txid === hash);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error('the watcher never listed the payment');
    })();
    await ops.getByTestId('chain-refresh').click();
    const row = ops.getByTestId(`unmatched-row-${payment.id}`);
    await row.waitFor();
    await ops.waitForTimeout(300);
    for (const lang of ['en', 'kr'] as const) {
      await ops.evaluate((l) => window.localStorage.setItem('language', l), lang);
      await ops.reload();
      await ops.getByTestId('chain-status-ETH').getByTestId('chain-node').waitFor();
      await opsShot(ops, `chain-status-${lang}`);
      await ops.getByTestId(`unmatched-row-${payment.id}`).scrollIntoViewIfNeeded();
      await opsShot(ops, `chain-unmatched-${lang}`);
    }

    await row.getByTestId(`assign-${payment.id}`).click();
    await ops.getByTestId('assign-search').fill(member.loginId);
    await ops.getByTestId('assign-search-submit').click();
    await ops.getByTestId(`assign-pick-${member.loginId}`).click();
    const dialog = ops.getByTestId('confirm-dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(member.loginId);
    expect(await dialog.textContent()).toContain('12.5 XRP');
    await opsShot(ops, 'chain-assign-kr');
    await confirmAction(ops, { reason: 'Sent without a tag; the member showed the wallet screenshot' });
    await expectToast(ops, `${member.loginId}`);
    await ops.getByTestId('filter-ASSIGNED').click();
    await ops.getByTestId(`unmatched-row-${payment.id}`).waitFor();

    expectQty((await walletOf(server, member.token, 'XRP')).balance, '12.5');
    await server.t.assertLedger();

    // the member sees it in the wallet, completed
    const { page } = await newMobilePage(browser, server.baseUrl);
    await uiLogin(page, member);
    await openWallet(page, 'XRP');
    await expect.poll(() => page.getByTestId('wallet-balance').textContent()).toBe('12.5000 XRP');
    expect(await rowOf(page, hash).getAttribute('data-status')).toBe('COMPLETED');
  });
});
