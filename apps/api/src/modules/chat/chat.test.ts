import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMember, type FixtureMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { BTC_PRICE, btcMarket, buyBody, operator, placeOrder, type Trader } from '../orders/test-kit.ts';

/** The order chat, notifications, the SMS switch and pause/resume (DECISIONS §12), on either database. */

let t: TestApp;
let op: FixtureMember;
let stranger: FixtureMember;
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  const { Writable } = await import('node:stream');
  const logStream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line) logLines.push(JSON.parse(line));
      done();
    },
  });
  t = await createTestApp({ LOG_LEVEL: 'info', CHAT_MESSAGES_PER_MIN: '1000' }, { logStream });
  op = await operator(t);
  stranger = await createMember(t);
});
afterAll(async () => {
  await t?.close();
});

type Msg = {
  messageId: number;
  kind: string;
  author: string;
  text: string | null;
  status: string | null;
  mine: boolean;
  image: { url: string; contentType: string } | null;
};
type Page = { list: Msg[]; nextCursor: string | null; writable: boolean };

async function newOrder(): Promise<{ seller: Trader; buyer: Trader; listingId: number; orderId: number }> {
  const m = await btcMarket(t, op);
  const r = await placeOrder(t, m.buyer, buyBody(m.id, 1_000_000, BTC_PRICE, m.buyer.wallet.id));
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return { seller: m.seller, buyer: m.buyer, listingId: m.id, orderId: r.body.returnData.orderId };
}

const messages = (orderId: number, token: string) =>
  t.call<Page>('GET', `/buy-orders/${orderId}/messages`, { token });
const say = (orderId: number, token: string, text: unknown) =>
  t.call<Msg>('POST', `/buy-orders/${orderId}/messages`, { token, body: { text } });

function multipart(file: Buffer | null, field = 'file', type = 'image/jpeg') {
  const boundary = '----tradeRoomTest';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="x.jpg"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, file ?? Buffer.alloc(0), tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function upload(orderId: number, token: string, file: Buffer | null, field?: string) {
  const mp = multipart(file, field);
  const res = await t.app.inject({
    method: 'POST',
    url: `/buy-orders/${orderId}/messages/image`,
    payload: mp.payload,
    headers: { ...mp.headers, authorization: `Bearer ${token}` },
  });
  return { status: res.statusCode, body: res.json() as { returnMessage: string; returnData: Msg } };
}

const countMessages = async (orderId: number) =>
  Number(
    (
      await t.app.deps.db
        .selectFrom('order_messages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('order_id', '=', orderId)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** A 64x48 JPEG carrying EXIF (camera make, GPS-like text) as a phone photo would. */
function jpegWithExif(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .jpeg()
    .withExif({ IFD0: { Make: 'SecretPhone', Model: 'X1', Copyright: 'home address 1-2-3' } })
    .toBuffer();
}

describe('order chat', () => {
  it('answers 404 to strangers on every chat route and serves parties and operators', async () => {
    const o = await newOrder();
    const text = await say(o.orderId, o.buyer.token, 'I will send the won now');
    expect(text.status).toBe(200);
    const img = await upload(o.orderId, o.buyer.token, await jpegWithExif());
    expect(img.status).toBe(200);
    const imageUrl = img.body.returnData.image?.url ?? '';

    const before = await countMessages(o.orderId);
    expect((await messages(o.orderId, stranger.token)).status).toBe(404);
    expect((await say(o.orderId, stranger.token, 'hello')).status).toBe(404);
    expect((await upload(o.orderId, stranger.token, await jpegWithExif())).status).toBe(404);
    const strangerImage = await t.app.inject({
      method: 'GET',
      url: imageUrl,
      headers: { authorization: `Bearer ${stranger.token}` },
    });
    expect(strangerImage.statusCode).toBe(404);
    expect(strangerImage.json().returnMessage).toBe('ORDER_NOT_FOUND');
    expect(await countMessages(o.orderId)).toBe(before);

    const seller = await messages(o.orderId, o.seller.token);
    expect(seller.status).toBe(200);
    expect(seller.body.returnData.list.map((m) => [m.kind, m.author, m.mine])).toEqual([
      ['SYSTEM', 'SYSTEM', false],
      ['TEXT', 'BUYER', false],
      ['IMAGE', 'BUYER', false],
    ]);
    expect(seller.body.returnData.list[0]?.status).toBe('REQUESTED');
    // operators read every chat but write only in disputes
    const ops = await messages(o.orderId, op.token);
    expect(ops.status).toBe(200);
    expect(ops.body.returnData.writable).toBe(false);
    const opSay = await say(o.orderId, op.token, 'operator here');
    expect([opSay.status, opSay.body.returnMessage]).toEqual([409, 'CHAT_CLOSED']);
  });

  it('stores text as given (no HTML handling) and refuses empty and over-long text, storing nothing', async () => {
    const o = await newOrder();
    const html = '<img src=x onerror=alert(1)> & <b>bold</b>';
    const r = await say(o.orderId, o.seller.token, html);
    expect(r.body.returnData.text).toBe(html);
    const before = await countMessages(o.orderId);
    for (const bad of ['', '   ', 'x'.repeat(1001), 42]) {
      const res = await say(o.orderId, o.buyer.token, bad);
      expect(res.status).toBe(400);
      expect(res.body.returnMessage).toBe('VALIDATION_FAILED');
    }
    expect((await say(o.orderId, o.buyer.token, 'x'.repeat(1000))).status).toBe(200);
    expect(await countMessages(o.orderId)).toBe(before + 1);
  });

  it('re-encodes images without their EXIF and serves them with safe headers', async () => {
    const o = await newOrder();
    const original = await jpegWithExif();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const r = await upload(o.orderId, o.buyer.token, original);
    expect(r.status).toBe(200);
    expect(r.body.returnData.image?.contentType).toBe('image/jpeg');
    for (const token of [o.buyer.token, o.seller.token, op.token]) {
      const res = await t.app.inject({
        method: 'GET',
        url: r.body.returnData.image?.url ?? '',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect(res.headers['content-disposition']).toMatch(/^inline; filename="order-\d+-\d+\.jpg"$/);
      expect(res.headers['cache-control']).toContain('no-store');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const served = res.rawPayload;
      const meta = await sharp(served).metadata();
      expect(meta.format).toBe('jpeg');
      expect([meta.width, meta.height]).toEqual([64, 48]);
      expect(meta.exif).toBeUndefined();
      expect(served.includes(Buffer.from('SecretPhone'))).toBe(false);
    }
    // PNG and WebP keep their format
    const png = await sharp({ create: { width: 8, height: 8, channels: 4, background: '#00ff00' } })
      .png()
      .toBuffer();
    const p = await upload(o.orderId, o.seller.token, png);
    expect(p.body.returnData.image?.contentType).toBe('image/png');
    const webp = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0000ff' } })
      .webp()
      .toBuffer();
    expect((await upload(o.orderId, o.seller.token, webp)).body.returnData.image?.contentType).toBe(
      'image/webp',
    );
  });

  it('refuses what is not an image, too large, empty or misnamed, storing nothing', async () => {
    const o = await newOrder();
    const before = await countMessages(o.orderId);
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
      .gif()
      .toBuffer();
    const cases: [Buffer | null, string | undefined, number, string][] = [
      [Buffer.from('%PDF-1.4 not an image'), undefined, 422, 'IMAGE_UNSUPPORTED'],
      [gif, undefined, 422, 'IMAGE_UNSUPPORTED'],
      [Buffer.concat([(await jpegWithExif()).subarray(0, 40)]), undefined, 422, 'IMAGE_UNSUPPORTED'],
      [Buffer.alloc(5 * 1024 * 1024 + 1, 0xff), undefined, 413, 'IMAGE_TOO_LARGE'],
      [null, undefined, 400, 'IMAGE_REQUIRED'],
      [await jpegWithExif(), 'photo', 400, 'IMAGE_REQUIRED'],
    ];
    for (const [file, field, status, code] of cases) {
      const r = await upload(o.orderId, o.buyer.token, file, field);
      expect([r.status, r.body.returnMessage]).toEqual([status, code]);
    }
    const json = await t.call('POST', `/buy-orders/${o.orderId}/messages/image`, {
      token: o.buyer.token,
      body: { file: 'x' },
    });
    expect([json.status, json.body.returnMessage]).toEqual([400, 'IMAGE_REQUIRED']);
    expect(await countMessages(o.orderId)).toBe(before);
    const images = await t.app.deps.db
      .selectFrom('chat_images')
      .select('id')
      .where('order_id', '=', o.orderId)
      .execute();
    expect(images).toEqual([]);
  });

  it('adds a system message per state change and closes 7 days after the order ended', async () => {
    const o = await newOrder();
    expect((await t.call('POST', `/buy-orders/${o.orderId}/paid`, { token: o.buyer.token })).status).toBe(
      200,
    );
    expect((await t.call('POST', `/buy-orders/${o.orderId}/cancel`, { token: o.buyer.token })).status).toBe(
      200,
    );
    const page = (await messages(o.orderId, o.seller.token)).body.returnData;
    expect(page.list.filter((m) => m.kind === 'SYSTEM').map((m) => m.status)).toEqual([
      'REQUESTED',
      'PAID',
      'CANCELED',
    ]);
    expect(page.writable).toBe(true);
    expect((await say(o.orderId, o.seller.token, 'sorry to see it go')).status).toBe(200);
    await t.app.deps.db
      .updateTable('buy_orders')
      .set({ ended_at: sql<Date>`now() - interval '7 days 1 minute'` })
      .where('id', '=', o.orderId)
      .execute();
    const before = await countMessages(o.orderId);
    const late = await say(o.orderId, o.buyer.token, 'still there?');
    expect([late.status, late.body.returnMessage]).toEqual([409, 'CHAT_CLOSED']);
    const lateImage = await upload(o.orderId, o.buyer.token, await jpegWithExif());
    expect([lateImage.status, lateImage.body.returnMessage]).toEqual([409, 'CHAT_CLOSED']);
    expect((await messages(o.orderId, o.buyer.token)).body.returnData.writable).toBe(false);
    expect(await countMessages(o.orderId)).toBe(before);
  });

  it('lets operators write while DISPUTED and pages 50 messages oldest first', async () => {
    const o = await newOrder();
    await t.call('POST', `/buy-orders/${o.orderId}/paid`, { token: o.buyer.token });
    const d = await t.call('POST', `/buy-orders/${o.orderId}/dispute`, {
      token: o.seller.token,
      body: { reason: 'PAYMENT_NOT_RECEIVED', statement: 'No deposit arrived in my account today.' },
    });
    expect(d.status).toBe(200);
    const opSay = await say(o.orderId, op.token, 'Please both upload your bank statements.');
    expect(opSay.status).toBe(200);
    expect(opSay.body.returnData.author).toBe('OPERATOR');
    for (let i = 0; i < 55; i++) await say(o.orderId, o.buyer.token, `line ${i}`);
    const first = (await messages(o.orderId, o.buyer.token)).body.returnData;
    expect(first.list).toHaveLength(50);
    expect(first.nextCursor).not.toBeNull();
    const second = (
      await t.call<Page>('GET', `/buy-orders/${o.orderId}/messages?cursor=${first.nextCursor}`, {
        token: o.buyer.token,
      })
    ).body.returnData;
    const all = [...first.list, ...second.list];
    expect(all.map((m) => m.messageId)).toEqual([...all.map((m) => m.messageId)].sort((a, b) => a - b));
    expect(all.at(-1)?.text).toBe('line 54');
    expect(second.nextCursor).toBeNull();
  });

  it('rate-limits posts per member (429 RATE_LIMITED)', async () => {
    const t2 = await createTestApp({ CHAT_MESSAGES_PER_MIN: '3' });
    try {
      const o2 = await operator(t2);
      const m = await btcMarket(t2, o2);
      const r = await placeOrder(t2, m.buyer, buyBody(m.id, 1_000_000, BTC_PRICE, m.buyer.wallet.id));
      const id = (r.body.returnData as { orderId: number }).orderId;
      for (let i = 0; i < 3; i++) {
        expect(
          (
            await t2.call('POST', `/buy-orders/${id}/messages`, {
              token: m.buyer.token,
              body: { text: 'hi' },
            })
          ).status,
        ).toBe(200);
      }
      const over = await t2.call('POST', `/buy-orders/${id}/messages`, {
        token: m.buyer.token,
        body: { text: 'hi' },
      });
      expect([over.status, over.body.returnMessage]).toEqual([429, 'RATE_LIMITED']);
      // the other party has their own budget
      expect(
        (await t2.call('POST', `/buy-orders/${id}/messages`, { token: m.seller.token, body: { text: 'hi' } }))
          .status,
      ).toBe(200);
    } finally {
      await t2.close();
    }
  });
});

type Notif = {
  id: number;
  kind: string;
  orderId: number | null;
  orderRole: string | null;
  listingId: number | null;
  read: boolean;
};
const kindsOf = async (token: string) =>
  (await t.call<{ list: Notif[]; unreadCount: number }>('GET', '/api/v1/notifications', { token })).body
    .returnData;

describe('notifications', () => {
  it('creates the kinds of each transition for the right member', async () => {
    const o = await newOrder();
    const sellerAfterOrder = await kindsOf(o.seller.token);
    expect(sellerAfterOrder.list.map((n) => n.kind)).toEqual(['ORDER_REQUESTED', 'LISTING_APPROVED']);
    await t.call('POST', `/buy-orders/${o.orderId}/paid`, { token: o.buyer.token });
    await say(o.orderId, o.buyer.token, 'sent!');
    await say(o.orderId, o.buyer.token, 'did you see it?');
    const done = await t.call('POST', `/buy-orders/${o.orderId}/complete`, {
      token: o.seller.token,
      body: { txid: 'bank-ref', stepUp: { password: o.seller.password } },
    });
    expect(done.status).toBe(200);
    const seller = await kindsOf(o.seller.token);
    // one unread MESSAGE notification per order, however many messages
    expect(seller.list.map((n) => n.kind)).toEqual([
      'MESSAGE',
      'ORDER_PAID',
      'ORDER_REQUESTED',
      'LISTING_APPROVED',
    ]);
    expect((await kindsOf(o.buyer.token)).list.map((n) => n.kind)).toEqual(['ORDER_COMPLETED']);

    // reject, buyer cancel, expiry, dispute and its resolution
    const r = await newOrder();
    await t.call('POST', `/buy-orders/${r.orderId}/reject`, { token: r.seller.token });
    expect((await kindsOf(r.buyer.token)).list.map((n) => [n.kind, n.orderRole])).toEqual([
      ['ORDER_REJECTED', 'BUYER'],
    ]);
    const c = await newOrder();
    await t.call('POST', `/buy-orders/${c.orderId}/cancel`, { token: c.buyer.token });
    expect((await kindsOf(c.seller.token)).list[0]?.kind).toBe('ORDER_CANCELED');
    expect((await kindsOf(c.buyer.token)).list).toEqual([]);
    const e = await newOrder();
    await t.app.deps.db
      .updateTable('buy_orders')
      .set({ payment_deadline: sql<Date>`now() - interval '1 second'` })
      .where('id', '=', e.orderId)
      .execute();
    await messages(e.orderId, e.buyer.token); // settles on read
    expect((await kindsOf(e.buyer.token)).list.map((n) => n.kind)).toEqual(['ORDER_EXPIRED']);
    expect((await kindsOf(e.seller.token)).list[0]?.kind).toBe('ORDER_EXPIRED');
    const d = await newOrder();
    await t.call('POST', `/buy-orders/${d.orderId}/paid`, { token: d.buyer.token });
    await t.call('POST', `/buy-orders/${d.orderId}/dispute`, {
      token: d.seller.token,
      body: { reason: 'PAYMENT_NOT_RECEIVED', statement: 'No deposit arrived in my account today.' },
    });
    expect((await kindsOf(d.buyer.token)).list.map((n) => n.kind)).toEqual(['DISPUTE_OPENED']);
    await t.call('POST', `/ops/api/v1/orders/${d.orderId}/cancel`, {
      token: op.token,
      body: { reason: 'no proof of payment' },
    });
    expect((await kindsOf(d.buyer.token)).list.map((n) => n.kind)).toEqual([
      'DISPUTE_RESOLVED',
      'DISPUTE_OPENED',
    ]);
    expect((await kindsOf(d.seller.token)).list[0]?.kind).toBe('DISPUTE_RESOLVED');
  });

  it('marks read (only the caller’s) and counts unread', async () => {
    const o = await newOrder();
    const before = await kindsOf(o.seller.token);
    expect(before.unreadCount).toBe(2);
    const ids = before.list.map((n) => n.id);
    // another member's ids change nothing
    await t.call('POST', '/api/v1/notifications/read', { token: stranger.token, body: { ids } });
    expect((await kindsOf(o.seller.token)).unreadCount).toBe(2);
    const r = await t.call<{ unreadCount: number }>('POST', '/api/v1/notifications/read', {
      token: o.seller.token,
      body: { ids: [ids[0]] },
    });
    expect(r.body.returnData.unreadCount).toBe(1);
    const count = await t.call<{ unreadCount: number }>('GET', '/api/v1/notifications/unread-count', {
      token: o.seller.token,
    });
    expect(count.body.returnData.unreadCount).toBe(1);
    expect((await kindsOf(o.seller.token)).list.map((n) => n.read)).toEqual([true, false]);
    const bad = await t.call('POST', '/api/v1/notifications/read', {
      token: o.seller.token,
      body: { ids: [] },
    });
    expect(bad.status).toBe(400);
  });

  it('sends the SMS kinds after commit unless the member turned SMS alerts off', async () => {
    const on = await newOrder();
    const off = await btcMarket(t, op);
    const settings = await t.call('PUT', '/api/v1/notifications/settings', {
      token: off.seller.token,
      body: { smsAlerts: false },
    });
    expect(settings.body.returnData).toEqual({ smsAlerts: false });
    expect(
      (await t.call('GET', '/api/v1/notifications/settings', { token: off.seller.token })).body.returnData,
    ).toEqual({
      smsAlerts: false,
    });
    const placed = await placeOrder(t, off.buyer, buyBody(off.id, 1_000_000, BTC_PRICE, off.buyer.wallet.id));
    const offOrder = (placed.body.returnData as { orderId: number }).orderId;
    const smsOf = (orderId: number, memberId: number) =>
      t.app.deps.db
        .selectFrom('notifications')
        .select(['sms_status', 'dispatched_at'])
        .where('order_id', '=', orderId)
        .where('member_id', '=', memberId)
        .where('kind', '=', 'ORDER_REQUESTED')
        .executeTakeFirstOrThrow();
    await vi.waitFor(async () => expect((await smsOf(on.orderId, on.seller.id)).sms_status).toBe('SENT'));
    await vi.waitFor(async () => expect((await smsOf(offOrder, off.seller.id)).sms_status).toBe('OFF'));
    const alerts = logLines.filter((l) => typeof l.smsAlert === 'string');
    const masked = (phone: string) => alerts.filter((l) => String(l.to).slice(-4) === phone.slice(-4));
    expect(masked(on.seller.phoneE164).some((l) => String(l.smsAlert).includes(`#${on.orderId}`))).toBe(true);
    expect(alerts.some((l) => String(l.smsAlert).includes(`#${offOrder} `))).toBe(false);
    // MESSAGE is not an SMS kind
    await say(on.orderId, on.buyer.token, 'hello');
    const msg = await t.app.deps.db
      .selectFrom('notifications')
      .select(['sms_status', 'dispatched_at'])
      .where('order_id', '=', on.orderId)
      .where('kind', '=', 'MESSAGE')
      .executeTakeFirstOrThrow();
    await vi.waitFor(async () => {
      const row = await t.app.deps.db
        .selectFrom('notifications')
        .select('dispatched_at')
        .where('order_id', '=', on.orderId)
        .where('kind', '=', 'MESSAGE')
        .executeTakeFirstOrThrow();
      expect(row.dispatched_at).not.toBeNull();
    });
    expect(msg.sms_status).toBeNull();
  });
});

describe('seller availability (자리 비움)', () => {
  it('pauses and resumes the owner’s listing; paused ones leave the list and take no orders', async () => {
    const m = await btcMarket(t, op);
    const listed = async () =>
      (
        await t.call<{ list: { listingId: number }[] }>('GET', '/api/v1/sell-listings?coin=BTC&size=50')
      ).body.returnData.list.some((l) => l.listingId === m.id);
    expect(await listed()).toBe(true);
    expect(
      (await t.call('POST', `/api/v1/sell-listings/${m.id}/pause`, { token: stranger.token })).status,
    ).toBe(404);
    expect(
      (await t.call('POST', `/api/v1/sell-listings/${m.id}/resume`, { token: m.seller.token })).status,
    ).toBe(409);
    const paused = await t.call<{ status: string }>('POST', `/api/v1/sell-listings/${m.id}/pause`, {
      token: m.seller.token,
    });
    expect([paused.status, paused.body.returnData.status]).toEqual([200, 'PAUSED']);
    expect(await listed()).toBe(false);
    const refused = await placeOrder(t, m.buyer, buyBody(m.id, 1_000_000, BTC_PRICE, m.buyer.wallet.id));
    expect([refused.status, refused.body.returnMessage]).toEqual([422, 'LISTING_NOT_OPEN']);
    await t.assertLedger();
    const resumed = await t.call<{ status: string }>('POST', `/api/v1/sell-listings/${m.id}/resume`, {
      token: m.seller.token,
    });
    expect(resumed.body.returnData.status).toBe('OPEN');
    expect(await listed()).toBe(true);
    expect(
      (await placeOrder(t, m.buyer, buyBody(m.id, 1_000_000, BTC_PRICE, m.buyer.wallet.id))).status,
    ).toBe(200);
  });
});
