import { readFileSync } from 'node:fs';
import { verifyProof } from '@p2p/reserves';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
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
 * coin's liabilities, reserves and ratio; the member checks in the browser that their balance is in the tree
 * (the path shown step by step) and downloads the proof, which verifies on its own.
 */
const e2e = e2eSuite({ RESERVES_SNAPSHOT_HOURS: '0' });
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
