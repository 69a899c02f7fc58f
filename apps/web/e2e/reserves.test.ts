import { readFileSync } from 'node:fs';
import { verifyProof } from '@p2p/reserves';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Anvil, startAnvil } from '../../api/test/nodes.ts';
import { startSigner, type TestSigner } from '../../api/test/signer.ts';
import { screenshot } from './support/browser.ts';
import { startE2EServer } from './support/server.ts';
import { e2eSuite } from './support/suite.ts';
import {
  apiOk,
  createWallet,
  fund,
  type Member,
  operatorToken,
  shootBoth,
  signedUpMember,
  switchLanguage,
  uiLogin,
} from './trade-kit.ts';

/**
 * Proof of reserves as a member sees it (DECISIONS §20): after a snapshot, the public 자산 증명 page shows each
 * coin's liabilities, reserves and ratio; BTC (no node here) with the operator's declared figure, ETH read from
 * an Anvil node with each address's control signature made by the real signer and checked in the browser; the
 * member checks that their balance is in the tree (the path shown step by step) and downloads the proof, which
 * verifies on its own.
 */
const COLD_ETH = '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf';
let anvil: Anvil;
let signer: TestSigner;
const e2e = e2eSuite(async () => {
  [signer, anvil] = await Promise.all([startSigner(), startAnvil()]);
  const server = await startE2EServer({
    RESERVES_SNAPSHOT_HOURS: '0',
    ...signer.apiEnv,
    CHAIN_RPC_ETH: anvil.url,
    COLD_ADDRESS_ETH: COLD_ETH,
  });
  const close = server.close.bind(server);
  return {
    ...server,
    close: async () => {
      await close();
      await Promise.all([signer.stop(), anvil.stop()]);
    },
  };
});
let member: Member;
let page: Page;

describe('proof of reserves (DECISIONS §20)', () => {
  beforeAll(async () => {
    const op = await operatorToken(e2e.server);
    member = await signedUpMember(e2e.server);
    const btc = await createWallet(e2e.server, member.token, 'BTC');
    await fund(e2e.server, op, 'BTC', btc.address, '0.75');
    const other = await signedUpMember(e2e.server);
    const otherBtc = await createWallet(e2e.server, other.token, 'BTC');
    await fund(e2e.server, op, 'BTC', otherBtc.address, '0.25');
    await apiOk(e2e.server, 'POST', '/ops/api/v1/reserves/declare', op, { coinCode: 'BTC', amount: '1.1' });
    await apiOk(e2e.server, 'POST', '/ops/api/v1/reserves/snapshot', op, { coinCode: 'BTC' });
    // ETH from the node: 2 ETH on the hot address (1/0), 1 ETH on the cold address, the member's credited 0.5 ETH
    // deposit still on its (unfunded here) deposit address: reserves 3 ETH against liabilities 0.5 ETH
    const eth = await createWallet(e2e.server, member.token, 'ETH');
    await fund(e2e.server, op, 'ETH', eth.address, '0.5');
    const hot = signer.accounts.accounts.find((a) => a.coin === 'ETH')?.hotAddress;
    if (!hot) throw new Error('the signer has no ETH hot address');
    await anvil.pay(hot as `0x${string}`, 2n * 10n ** 18n);
    await anvil.pay(COLD_ETH, 10n ** 18n);
    await apiOk(e2e.server, 'POST', '/ops/api/v1/reserves/snapshot', op, { coinCode: 'ETH' });
    page = (await e2e.mobilePage()).page;
  });

  it('shows each coin’s liabilities, declared reserves and ratio to anyone', async () => {
    await page.goto('/reserves');
    await switchLanguage(page, 'kr');
    const card = page.getByTestId('reserves-BTC');
    await card.waitFor();
    // every member's BTC at this snapshot: at least these two, whatever the demo data holds
    expect(await card.getByTestId('reserves-reserves').textContent()).toBe('1.1 BTC');
    expect(await card.getByTestId('reserves-ratio').textContent()).toMatch(/^\d+\.\d{2}%$/);
    expect(await card.textContent()).toContain('운영자가 신고한 수치');
    expect(await page.getByTestId('reserves-check').count()).toBe(0);
    expect(await card.getByTestId('reserves-source').getAttribute('data-source')).toBe('DECLARED');
  });

  it('shows ETH read from the node, each address with its signature checked in the browser', async () => {
    const card = page.getByTestId('reserves-ETH');
    expect(await card.getByTestId('reserves-reserves').textContent()).toBe('3 ETH');
    expect(await card.getByTestId('reserves-ratio').textContent()).toBe('600.00%');
    expect(await card.getByTestId('reserves-source').textContent()).toBe('노드에서 직접 읽은 잔고예요');
    await card.getByTestId('reserves-addresses').locator('summary').click();
    const items = card.getByTestId('reserves-address');
    await expect.poll(() => items.count()).toBe(3);
    // the marks appear once the browser has checked each signature (viem, @noble/curves)
    await expect.poll(() => card.locator('[data-mark="verified"]').count(), { timeout: 15_000 }).toBe(2);
    const cold = card.locator('[data-testid="reserves-address"]', { hasText: COLD_ETH });
    expect(await cold.getAttribute('data-mark')).toBe('unsigned');
    expect(await cold.textContent()).toContain('오프라인 보관 키');
    expect(await card.locator('summary').textContent()).toBe('플랫폼 주소 3개 · 서명 확인 2개');
    // the list open, in both languages, once the browser has checked the signatures
    for (const lang of ['en', 'kr'] as const) {
      await switchLanguage(page, lang);
      const eth = page.getByTestId('reserves-ETH');
      await eth.getByTestId('reserves-addresses').locator('summary').click();
      await expect.poll(() => eth.locator('[data-mark="verified"]').count(), { timeout: 15_000 }).toBe(2);
      await screenshot(page, 'reserves-node', lang);
    }
  });

  it('a member verifies their own balance in the browser, sees the path and downloads the proof', async () => {
    await uiLogin(page, member);
    await page.goto('/reserves');
    await page.getByTestId('reserves-BTC').getByTestId('reserves-check').click();
    const result = page.getByTestId('reserves-result');
    await result.waitFor();
    expect(await result.textContent()).toContain('확인됐어요. 내 잔고 0.75 BTC');
    expect(await page.getByTestId('reserves-path').locator('li').count()).toBeGreaterThanOrEqual(1);
    await shootBoth(page, 'reserves', 'reserves-BTC');
    await page.getByTestId('reserves-BTC').getByTestId('reserves-check').click();
    await result.waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('reserves-download').click(),
    ]);
    const path = await download.path();
    const proof = JSON.parse(readFileSync(path, 'utf8'));
    expect(verifyProof(proof)).toMatchObject({ ok: true });
    expect(proof.leaf.balance).toBe('75000000');
    expect(verifyProof({ ...proof, leaf: { ...proof.leaf, balance: '75000001' } }).ok).toBe(false);
  });

  it('the wallet screen leads there', async () => {
    await page.goto('/myinfo');
    await page.getByTestId('tab-wallet').click();
    await page.locator('[data-testid="wallet-item"][data-coin="BTC"]').getByTestId('wallet-detail').click();
    await page.getByTestId('wallet-reserves').click();
    await page.waitForURL((u) => u.pathname === '/reserves');
  });
});
