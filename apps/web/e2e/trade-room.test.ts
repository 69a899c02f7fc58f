import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleLogin, DESK, opsShot } from './ops-kit.ts';
import { SCREENSHOT_DIR } from './support/browser.ts';
import { e2eSuite } from './support/suite.ts';
import {
  apiOk,
  approvePending,
  createWallet,
  expectToast,
  fund,
  type Member,
  operatorToken,
  signedUpMember,
  switchLanguage,
  uiLogin,
} from './trade-kit.ts';

/**
 * The trade room in two browsers (DECISIONS §12): a buyer and a seller, each in their own
 * context with the live stream opted in, on one server. The buyer requests through the screens, writes
 * in the order chat and uploads a receipt photo; the seller's open order screen shows both without a
 * reload (the chat has no polling: only the live `message` event refreshes it); the buyer's 입금했어요
 * turns the seller's open screen to PAID; the seller's header badge counts. Then an operator reads the
 * chat on the dispute page and writes in it. 390x844 screenshots of the chat in kr and en.
 */

const OPERATOR = { loginId: 'roomop', password: 'roomOps123!' };
const PRICE = 10_000_000;
const HELLO = '안녕하세요, 지금 입금할게요 <b>굵게</b> & <img src=x onerror=alert(1)>';

const e2e = e2eSuite({
  OPERATOR_LOGIN_ID: OPERATOR.loginId,
  OPERATOR_PASSWORD: OPERATOR.password,
});
let seller: Member;
let buyer: Member;
let buyerCtx: BrowserContext;
let sellerCtx: BrowserContext;
let b: Page;
let s: Page;
/** A second tab of the seller on the home page, whose header shows the unread badge. */
let sHome: Page;
let orderId = 0;
let op = '';
const errors: string[] = [];

/** A receipt-like PNG (white slip with a blue band) made with sharp, as a phone screenshot would be. */
async function receiptPng(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="360" height="540">
    <rect width="360" height="540" fill="#ffffff"/><rect width="360" height="90" fill="#1f5bf0"/>
    <rect x="30" y="140" width="300" height="18" fill="#d0d6e2"/><rect x="30" y="190" width="220" height="18" fill="#d0d6e2"/>
    <rect x="30" y="260" width="300" height="48" fill="#eaf0ff"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Every navigation of the page's main frame from now on (none may happen: no reloads). */
function recordNavigations(p: Page): string[] {
  const seen: string[] = [];
  p.on('framenavigated', (f) => {
    if (f === p.mainFrame()) seen.push(f.url());
  });
  return seen;
}

async function liveContext(): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await e2e.mobilePage();
  page.on('pageerror', (e) => errors.push(e.message));
  // under automation the app streams only when asked to (use-live-events.ts)
  await context.addInitScript(() => {
    window.localStorage.setItem('liveEvents', 'on');
    if (!window.localStorage.getItem('language')) window.localStorage.setItem('language', 'kr');
  });
  return { context, page };
}

const badge = (p: Page) => p.getByTestId('header-unread').locator('[aria-hidden="true"]');
const messagesOf = (p: Page) => p.getByTestId('chat-message');
const statusOf = (p: Page) => p.getByTestId('status-panel').getAttribute('data-status');

/** The chat scrolled into the 390x844 viewport as test-output/screenshots/<lang>-trade-room-<name>.png. */
async function shootChat(p: Page, name: string): Promise<void> {
  for (const lang of ['en', 'kr'] as const) {
    await switchLanguage(p, lang);
    const chat = p.getByTestId('order-chat');
    await chat.waitFor();
    await p.locator('[data-testid="chat-image"][data-loaded="true"]').first().waitFor();
    await chat.evaluate((el) => el.scrollIntoView({ block: 'end' }));
    await p.screenshot({
      path: join(SCREENSHOT_DIR, `${lang}-trade-room-${name}.png`),
      animations: 'disabled',
    });
  }
}

beforeAll(async () => {
  op = await operatorToken(e2e.server);
  seller = await signedUpMember(e2e.server);
  buyer = await signedUpMember(e2e.server);
  const w = await createWallet(e2e.server, seller.token, 'BTC');
  await fund(e2e.server, op, 'BTC', w.address, '1');
  await apiOk(e2e.server, 'POST', '/api/v1/sell-listings', seller.token, {
    walletId: w.id,
    minQty: '0.001',
    maxQty: '0.5',
    unitPriceKrw: PRICE,
    bankName: '신한은행',
    accountNo: '11012345678',
    stepUp: { password: seller.password },
  });
  await approvePending(e2e.server, op);
  await createWallet(e2e.server, buyer.token, 'BTC');
  ({ context: buyerCtx, page: b } = await liveContext());
  ({ context: sellerCtx, page: s } = await liveContext());
  await uiLogin(b, buyer);
  await uiLogin(s, seller);
  sHome = await sellerCtx.newPage();
  sHome.on('pageerror', (e) => errors.push(e.message));
  await sHome.goto('/');
}, 300_000);

afterAll(async () => {
  await buyerCtx?.close();
  await sellerCtx?.close();
});

describe('the trade room in two browsers', () => {
  it('the buyer requests and finds the chat under the instruction with the receipt tip', async () => {
    await b.goto('/transaction');
    await b.getByTestId('buy-instant').first().click();
    await b.waitForURL((u) => u.pathname === '/purchase');
    await b.getByTestId('purchase-amount').fill('50000');
    await b.getByTestId('internal-address').waitFor();
    await b.getByTestId('purchase-submit').click();
    await b.waitForURL((u) => u.pathname === '/verify');
    await b.getByTestId('verify-send').click();
    await expectToast(b, '인증번호가 발송됐어요.');
    await b.getByTestId('verify-code').fill(await e2e.server.smsCode(buyer.phoneE164));
    await b.getByTestId('verify-submit').click();
    await b.waitForURL((u) => u.pathname === '/request_successfully');

    const chat = b.getByTestId('order-chat');
    await chat.waitFor();
    // the order's first state is already in the chat as a system message
    await b.locator('[data-testid="chat-system"][data-status="REQUESTED"]').waitFor();
    expect(await b.getByTestId('chat-tip').textContent()).toContain('입금 확인증을 올려주세요');
    for (const id of ['chat-send', 'chat-attach']) {
      const box = await b.getByTestId(id).boundingBox();
      expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
      expect(box?.width ?? 0).toBeGreaterThanOrEqual(44);
    }
    const orders = await apiOk<{ list: { orderId: number }[] }>(
      e2e.server,
      'GET',
      '/my/buy-history',
      buyer.token,
    );
    orderId = orders.list[0]?.orderId ?? 0;
    expect(orderId).toBeGreaterThan(0);
  });

  it('the seller’s open screen shows the buyer’s message and receipt photo without a reload', async () => {
    await s.goto(`/view_details?id=${orderId}&type=sell-history`);
    await s.getByTestId('order-chat').waitFor();
    await s.locator('[data-testid="chat-system"][data-status="REQUESTED"]').waitFor();
    // the seller has no receipt tip; LISTING_APPROVED and ORDER_REQUESTED are unread
    expect(await s.getByTestId('chat-tip').count()).toBe(0);
    await expect.poll(() => badge(sHome).textContent(), { timeout: 15_000 }).toBe('2');
    const navigations = recordNavigations(s);
    const homeNavigations = recordNavigations(sHome);

    await b.getByTestId('chat-input').fill(HELLO);
    expect(await b.getByTestId('chat-counter').textContent()).toBe(`${HELLO.length}/1000`);
    await b.getByTestId('chat-send').click();
    await expect.poll(() => messagesOf(b).count()).toBe(1);
    expect(await b.getByTestId('chat-input').inputValue()).toBe('');
    expect(await messagesOf(b).first().getAttribute('data-mine')).toBe('true');

    // on the seller's screen, on the left, as text: no element was made of the markup
    await expect.poll(() => messagesOf(s).count(), { timeout: 15_000 }).toBe(1);
    const theirs = messagesOf(s).first();
    expect(await theirs.getAttribute('data-mine')).toBe('false');
    expect(await theirs.textContent()).toContain(HELLO);
    expect(await theirs.locator('b, img').count()).toBe(0);
    const [sBox, listBox] = [await theirs.boundingBox(), await s.getByTestId('chat-list').boundingBox()];
    expect((sBox?.x ?? 999) - (listBox?.x ?? 0)).toBeLessThan(20);
    // a MESSAGE notification
    await expect.poll(() => badge(sHome).textContent(), { timeout: 15_000 }).toBe('3');

    // a file that is not an image, and one over 5 MB, are refused before any upload
    await b.getByTestId('chat-file').setInputFiles({
      name: 'note.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not an image'),
    });
    expect(await b.getByTestId('chat-error').textContent()).toBe('JPEG, PNG, WebP 이미지만 보낼 수 있어요.');
    await b.getByTestId('chat-file').setInputFiles({
      name: 'huge.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(5 * 1024 * 1024 + 1),
    });
    expect(await b.getByTestId('chat-error').textContent()).toContain('5MB');
    expect(await messagesOf(b).count()).toBe(1);

    await b.getByTestId('chat-file').setInputFiles({
      name: 'receipt.png',
      mimeType: 'image/png',
      buffer: await receiptPng(),
    });
    await expect.poll(() => messagesOf(b).count()).toBe(2);
    expect(await b.getByTestId('chat-error').textContent()).toBe('');
    await expect
      .poll(() => s.locator('[data-testid="chat-image"][data-loaded="true"]').count(), { timeout: 15_000 })
      .toBe(1);
    // shown from a blob URL (the API wants the bearer token), decoded at its size
    const img = s.getByTestId('chat-image').locator('img');
    expect(await img.getAttribute('src')).toMatch(/^blob:/);
    expect(await img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(360);
    await s.getByTestId('chat-image').click();
    await expect
      .poll(() => s.getByTestId('chat-viewer').evaluate((d) => (d as HTMLDialogElement).open))
      .toBe(true);
    await s.getByTestId('chat-viewer-close').click();
    await expect
      .poll(() => s.getByTestId('chat-viewer').evaluate((d) => (d as HTMLDialogElement).open))
      .toBe(false);
    expect(navigations).toEqual([]);
    expect(homeNavigations).toEqual([]);
  });

  it('입금했어요 on the buyer’s screen turns the seller’s open screen to PAID; the badge counts it', async () => {
    const navigations = recordNavigations(s);
    const homeNavigations = recordNavigations(sHome);
    expect(await statusOf(s)).toBe('REQUESTED');
    await b.getByTestId('action-paid').click();
    await b.getByTestId('confirm-yes').click();
    await expectToast(b, '판매자에게 입금을 알렸어요.');
    // the chat's system message comes only with the live event; the status panel follows too
    await s.locator('[data-testid="chat-system"][data-status="PAID"]').waitFor({ timeout: 15_000 });
    await expect.poll(() => statusOf(s), { timeout: 15_000 }).toBe('PAID');
    await expect.poll(() => badge(sHome).textContent(), { timeout: 15_000 }).toBe('4');
    expect(navigations).toEqual([]);
    expect(homeNavigations).toEqual([]);
    // the tip stays while PAID, on the buyer's side only
    expect(await b.getByTestId('chat-tip').count()).toBe(1);

    await s.getByTestId('chat-input').fill('확인해볼게요. 잠시만요.');
    await s.getByTestId('chat-send').click();
    await expect.poll(() => messagesOf(b).count(), { timeout: 15_000 }).toBe(3);
    expect(await messagesOf(b).last().getAttribute('data-mine')).toBe('false');
    expect(await messagesOf(b).last().getAttribute('data-author')).toBe('SELLER');
    expect(errors).toEqual([]);
  });

  it('screenshots of the chat at 390x844 in kr and en', async () => {
    await b.goto(`/view_details?id=${orderId}&type=purchase`);
    await shootChat(b, 'buyer');
    await shootChat(s, 'seller');
  });

  it('an operator reads the chat on the dispute page and writes in it', async () => {
    await apiOk(e2e.server, 'POST', `/buy-orders/${orderId}/dispute`, seller.token, {
      reason: 'PAYMENT_NOT_RECEIVED',
      statement: 'No deposit of 50,000 won from this name arrived in my account.',
    });
    const context = await e2e.browser.newContext({
      viewport: DESK,
      baseURL: e2e.server.baseUrl,
      locale: 'en-US',
    });
    try {
      const ops = await context.newPage();
      await consoleLogin(ops, OPERATOR);
      await ops.getByTestId('ops-nav-disputes').waitFor();
      await ops.goto(`/ops/disputes?order=${orderId}`);
      await ops.getByTestId('dispute-detail').waitFor();
      const chat = ops.getByTestId('order-chat');
      await expect.poll(() => chat.getByTestId('chat-message').count()).toBe(3);
      expect(await chat.textContent()).toContain(HELLO);
      await chat.locator('[data-testid="chat-image"][data-loaded="true"]').waitFor();
      await chat.locator('[data-testid="chat-system"][data-status="DISPUTED"]').waitFor();
      await chat.getByTestId('chat-input').fill('운영자예요. 입금 내역을 확인하고 있어요.');
      await chat.getByTestId('chat-send').click();
      await expect.poll(() => chat.getByTestId('chat-message').count()).toBe(4);
      await chat.getByTestId('chat-message').last().scrollIntoViewIfNeeded();
      await opsShot(ops, 'dispute-chat');
    } finally {
      await context.close();
    }
    // the parties see the operator's message, marked, without a reload
    const last = messagesOf(s).last();
    await expect.poll(() => last.getAttribute('data-author'), { timeout: 15_000 }).toBe('OPERATOR');
    expect(await last.textContent()).toContain('운영자 메시지');
  });

  it('a week after the order ended the chat is closed for writing and says why', async () => {
    await apiOk(e2e.server, 'POST', `/ops/api/v1/orders/${orderId}/cancel`, op, {
      reason: 'no deposit found',
    });
    await s.locator('[data-testid="chat-system"][data-status="CANCELED"]').waitFor({ timeout: 15_000 });
    // still open right after the end (DECISIONS §12: 7 days)
    expect(await s.getByTestId('chat-input').count()).toBe(1);
    await e2e.server.t.app.deps.db
      .updateTable('buy_orders')
      .set({ ended_at: new Date(Date.now() - 8 * 24 * 3600_000) })
      .where('id', '=', orderId)
      .execute();
    await s.goto(`/view_details?id=${orderId}&type=sell-history`);
    const closed = s.getByTestId('chat-closed');
    await closed.waitFor();
    expect(await closed.textContent()).toContain('대화가 종료되었어요');
    expect(await s.getByTestId('chat-input').count()).toBe(0);
    // what was said stays readable
    expect(await messagesOf(s).count()).toBe(4);
    expect(errors).toEqual([]);
  });
});
