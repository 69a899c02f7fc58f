import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eSuite } from './support/suite.ts';
import {
  apiOk,
  approvePending,
  createWallet,
  expectToast,
  fund,
  type Member,
  operatorToken,
  shootBoth,
  shootNow,
  signedUpMember,
  switchLanguage,
  uiLogin,
} from './trade-kit.ts';

/**
 * The seller's 자리 비움 ("Seller availability", DECISIONS §4 and §12) in a 390x844 browser against
 * the real API: from /myinfo's sell registrations the seller pauses an OPEN listing after a confirm that says
 * what it does; it leaves the public trade list (page and API) and reads 자리 비움; 다시 판매하기 brings it back.
 */
const e2e = e2eSuite();
let seller: Member;
let page: Page;
let errors: string[];
let listingId: number;
let otherListingId: number;

/** A funded BTC wallet and a listing, approved; returns the listing id. */
async function openListing(m: Member, op: string, unitPriceKrw: number): Promise<number> {
  const w = await createWallet(e2e.server, m.token, 'BTC');
  await fund(e2e.server, op, 'BTC', w.address, '1');
  const l = await apiOk<{ listingId: number }>(e2e.server, 'POST', '/api/v1/sell-listings', m.token, {
    walletId: w.id,
    minQty: '0.001',
    maxQty: '0.5',
    unitPriceKrw,
    bankName: '신한은행',
    accountNo: '11012345678',
    stepUp: { password: m.password },
  });
  await approvePending(e2e.server, op);
  return l.listingId;
}

/** The listing ids of the public trade list (GET /api/v1/sell-listings, no token). */
async function publicIds(): Promise<number[]> {
  const page = await apiOk<{ list: { listingId: number }[] }>(
    e2e.server,
    'GET',
    '/api/v1/sell-listings?size=50',
  );
  return page.list.map((l) => l.listingId);
}

/** /transaction as the page shows it: whether the seller's card is there, once the other seller's card is. */
async function onTradePage(): Promise<boolean> {
  await page.goto('/transaction');
  await page.locator(`[data-testid="listing-card"][data-listing-id="${otherListingId}"]`).waitFor();
  return (await page.locator(`[data-testid="listing-card"][data-listing-id="${listingId}"]`).count()) === 1;
}

const item = () => page.locator(`[data-testid="history-sell-register"][data-id="${listingId}"]`);

async function openRegistrations(): Promise<void> {
  await page.goto('/myinfo');
  await page.getByTestId('tab-sellRegister').click();
  await item().waitFor();
}

beforeAll(async () => {
  const op = await operatorToken(e2e.server);
  seller = await signedUpMember(e2e.server);
  listingId = await openListing(seller, op, 10_000_000);
  otherListingId = await openListing(await signedUpMember(e2e.server), op, 10_100_000);
  ({ page, errors } = await e2e.mobilePage());
  await uiLogin(page, seller);
  await switchLanguage(page, 'kr');
}, 300_000);

describe('seller availability: 자리 비움 and 다시 판매하기', () => {
  it('an OPEN listing is on the trade list and offers 자리 비움 (44 px)', async () => {
    expect(await publicIds()).toContain(listingId);
    expect(await onTradePage()).toBe(true);
    await openRegistrations();
    expect(await item().getByTestId('status-badge').textContent()).toBe('판매중');
    const pause = item().getByTestId('listing-pause');
    expect(await pause.textContent()).toBe('자리 비움');
    expect((await pause.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    expect(await item().getByTestId('listing-resume').count()).toBe(0);
  });

  it('the confirm explains the effect; 취소 changes nothing', async () => {
    await item().getByTestId('listing-pause').click();
    const modal = page.getByTestId('confirm-modal');
    await modal.waitFor();
    expect(await modal.textContent()).toContain(
      '자리 비움 중에는 거래 목록에 보이지 않고 새 주문을 받지 않아요. 진행 중인 주문은 그대로예요.',
    );
    await shootNow(page, 'seller-pause-confirm');
    await page.getByTestId('confirm-no').click();
    await modal.waitFor({ state: 'detached' });
    const mine = await apiOk<{ list: { listingId: number; status: string }[] }>(
      e2e.server,
      'GET',
      '/my/sell',
      seller.token,
    );
    expect(mine.list.find((l) => l.listingId === listingId)?.status).toBe('OPEN');
    expect(await item().getAttribute('data-status')).toBe('OPEN');
  });

  it('pausing: the listing reads 자리 비움 with its explanation and leaves the trade list', async () => {
    await item().getByTestId('listing-pause').click();
    await page.getByTestId('confirm-yes').click();
    await expectToast(page, '자리 비움으로 바꿨어요. 거래 목록에서 내려갔어요.');
    await expect.poll(() => item().getAttribute('data-status')).toBe('PAUSED');
    expect(await item().getByTestId('status-badge').textContent()).toBe('자리 비움');
    expect(await item().getByTestId('listing-paused-note').textContent()).toContain(
      '거래 목록에 보이지 않고 새 주문을 받지 않아요',
    );
    const resume = item().getByTestId('listing-resume');
    expect(await resume.textContent()).toBe('다시 판매하기');
    expect((await resume.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    expect(await item().getByTestId('listing-pause').count()).toBe(0);

    expect(await publicIds()).not.toContain(listingId);
    expect(await publicIds()).toContain(otherListingId);
    expect(await onTradePage()).toBe(false);
  });

  it('screenshots the tab with the paused listing in kr and en', async () => {
    await openRegistrations();
    await shootBoth(page, 'seller-paused', 'listing-resume');
    await switchLanguage(page, 'en');
    await item().getByTestId('listing-resume').waitFor();
    expect(await item().getByTestId('status-badge').textContent()).toBe('Away (paused)');
    expect(await item().getByTestId('listing-resume').textContent()).toBe('Resume selling');
    await switchLanguage(page, 'kr');
    await item().getByTestId('listing-resume').waitFor();
  });

  it('다시 판매하기 puts it back on the trade list', async () => {
    await item().getByTestId('listing-resume').click();
    await expectToast(page, '다시 판매를 시작했어요. 거래 목록에 다시 보여요.');
    await expect.poll(() => item().getAttribute('data-status')).toBe('OPEN');
    expect(await item().getByTestId('status-badge').textContent()).toBe('판매중');
    expect(await item().getByTestId('listing-paused-note').count()).toBe(0);
    expect(await publicIds()).toContain(listingId);
    expect(await onTradePage()).toBe(true);
    await e2e.server.t.assertLedger();
    expect(errors).toEqual([]);
  });
});
