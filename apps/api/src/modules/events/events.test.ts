import { type EventSourceMessage, EventSourceParserStream } from 'eventsource-parser/stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMember } from '../../../test/fixtures.ts';
import { createTestApp, onPostgres, type TestApp } from '../../../test/helpers.ts';
import { type App, buildApp } from '../../app.ts';
import { openDb } from '../../db/client.ts';
import { BTC_PRICE, btcMarket, buyBody, operator, placeOrder } from '../orders/test-kit.ts';

/**
 * GET /api/v1/events over real HTTP (DECISIONS §12): a kept SSE parser reads the stream. On PostgreSQL
 * the event is caused on a second app instance on the same database (LISTEN/NOTIFY across instances);
 * on PGlite on the one embedded instance.
 */

let t: TestApp;
let other: App; // the instance where actions happen
let otherClose: () => Promise<void>;
let base: string;

beforeAll(async () => {
  // one JWT secret for both instances, as a load-balanced deployment has
  t = await createTestApp({
    EVENTS_HEARTBEAT_SEC: '1',
    JWT_SECRET: 'trade-room-test-secret-of-32-chars-or-more',
  });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  if (onPostgres) {
    const dbh = await openDb({ databaseUrl: t.config.databaseUrl, dataDir: t.config.dataDir });
    other = await buildApp(t.config, { dbh, serveWeb: false, skipStartupTasks: true });
    await other.ready();
    otherClose = async () => {
      await other.close();
      await dbh.close();
    };
  } else {
    other = t.app;
    otherClose = async () => undefined;
  }
});
afterAll(async () => {
  await otherClose?.();
  await t?.close();
});

/** An open event stream: what it received so far (events and comments), and how to end it. */
async function openStream(token: string, lastEventId?: string) {
  const ac = new AbortController();
  const res = await fetch(`${base}/api/v1/events`, {
    headers: { authorization: `Bearer ${token}`, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
    signal: ac.signal,
  });
  const events: EventSourceMessage[] = [];
  const comments: string[] = [];
  let ended = false;
  if (res.body) {
    const reader = res.body
      .pipeThrough(new TextDecoderStream())
      .pipeThrough(new EventSourceParserStream({ onComment: (c) => comments.push(c) }))
      .getReader();
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          events.push(value);
        }
      } catch {
        // aborted by the test
      }
      ended = true;
    })();
  }
  return { res, events, comments, ended: () => ended, close: () => ac.abort() };
}

/** Calls the instance where actions happen (inject: no network needed for the cause). */
async function act(method: 'POST' | 'GET', url: string, token: string, body?: unknown) {
  const res = await other.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    payload: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.statusCode, body: res.json() };
}

const dataOf = (e: EventSourceMessage) => JSON.parse(e.data) as Record<string, unknown>;

describe('live events', () => {
  it('needs a token and a well-formed Last-Event-ID', async () => {
    const anon = await fetch(`${base}/api/v1/events`);
    expect(anon.status).toBe(401);
    const m = await createMember(t);
    const bad = await fetch(`${base}/api/v1/events`, {
      headers: { authorization: `Bearer ${m.token}`, 'last-event-id': 'abc' },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { returnMessage: string }).returnMessage).toBe('VALIDATION_FAILED');
  });

  it('streams order, message and notification events caused on another instance, with heartbeats', async () => {
    const op = await operator(t);
    const m = await btcMarket(t, op);
    const seller = await openStream(m.seller.token);
    expect(seller.res.status).toBe(200);
    expect(seller.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(seller.res.headers.get('cache-control')).toBe('no-store');
    const ops = await openStream(op.token);

    await placeOrder(t, m.buyer, buyBody(m.id, 1_000_000, BTC_PRICE, m.buyer.wallet.id));
    const orderId = Number(
      (
        await t.app.deps.db
          .selectFrom('buy_orders')
          .select('id')
          .where('listing_id', '=', m.id)
          .executeTakeFirstOrThrow()
      ).id,
    );
    const paid = await act('POST', `/buy-orders/${orderId}/paid`, m.buyer.token);
    expect(paid.status).toBe(200);
    await vi.waitFor(() => {
      const orders = seller.events.filter((e) => e.event === 'order').map(dataOf);
      expect(orders).toContainEqual({ id: orderId, status: 'PAID' });
    });
    expect(seller.events.filter((e) => e.event === 'order').map(dataOf)).toEqual([
      { id: orderId, status: 'REQUESTED' },
      { id: orderId, status: 'PAID' },
    ]);
    const kinds = seller.events.filter((e) => e.event === 'notification').map((e) => dataOf(e).kind);
    expect(kinds).toEqual(['ORDER_REQUESTED', 'ORDER_PAID']);
    expect(seller.events.every((e) => /^\d+$/.test(e.id ?? ''))).toBe(true);
    const ids = seller.events.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));

    expect(
      (await act('POST', `/buy-orders/${orderId}/messages`, m.buyer.token, { text: 'sent' })).status,
    ).toBe(200);
    await vi.waitFor(() => {
      expect(seller.events.filter((e) => e.event === 'message').map(dataOf)).toContainEqual({ orderId });
    });
    // the dispute reaches the operators' queue
    const d = await act('POST', `/buy-orders/${orderId}/dispute`, m.seller.token, {
      reason: 'PAYMENT_NOT_RECEIVED',
      statement: 'No deposit arrived in my account today.',
    });
    expect(d.status).toBe(200);
    await vi.waitFor(() => {
      expect(ops.events.filter((e) => e.event === 'ops').map(dataOf)).toContainEqual({
        kind: 'DISPUTE_OPENED',
        orderId,
      });
    });
    // nobody else's events reach a member
    const buyerKinds = new Set(seller.events.map((e) => e.event));
    expect(buyerKinds.has('ops')).toBe(false);
    await vi.waitFor(() => expect(seller.comments.length).toBeGreaterThan(0), { timeout: 5000 });
    seller.close();
    ops.close();
  });

  it('resumes after Last-Event-ID with what was missed, and answers reset when it cannot', async () => {
    const op = await operator(t);
    const m = await btcMarket(t, op);
    const s1 = await openStream(m.seller.token);
    const placed = await placeOrder(t, m.buyer, buyBody(m.id, 1_000_000, BTC_PRICE, m.buyer.wallet.id));
    const orderId = (placed.body.returnData as { orderId: number }).orderId;
    await vi.waitFor(() => expect(s1.events.some((e) => e.event === 'order')).toBe(true));
    const last = s1.events.at(-1)?.id ?? '';
    await vi.waitFor(() => expect(s1.events.filter((e) => e.event === 'notification')).toHaveLength(1));
    const seen = s1.events.at(-1)?.id ?? '';
    s1.close();
    expect(last).not.toBe('');

    // while disconnected: the buyer pays and writes
    await act('POST', `/buy-orders/${orderId}/paid`, m.buyer.token);
    await act('POST', `/buy-orders/${orderId}/messages`, m.buyer.token, { text: 'paid!' });

    const s2 = await openStream(m.seller.token, seen);
    await vi.waitFor(() => {
      expect(s2.events.filter((e) => e.event === 'order').map(dataOf)).toContainEqual({
        id: orderId,
        status: 'PAID',
      });
      expect(s2.events.filter((e) => e.event === 'notification').map((e) => dataOf(e).kind)).toEqual([
        'ORDER_PAID',
        'MESSAGE',
      ]);
    });
    expect(s2.events.every((e) => Number(e.id) > Number(seen))).toBe(true);
    s2.close();

    // an id that is not the member's (or no longer kept): reset, then live. (The order's events are one row for
    // both parties since 031, so the buyer may resume from it; a member outside the order may not.)
    const outsider = await createMember(t);
    const s3 = await openStream(outsider.token, seen);
    await vi.waitFor(() => expect(s3.events[0]?.event).toBe('reset'));
    s3.close();
  });

  it('keeps at most EVENTS_MAX_STREAMS_PER_MEMBER streams per member and ends streams when the app closes', async () => {
    const t2 = await createTestApp({ EVENTS_MAX_STREAMS_PER_MEMBER: '2' });
    const base2 = await t2.app.listen({ port: 0, host: '127.0.0.1' });
    const m = await createMember(t2);
    const open = async () => {
      const res = await fetch(`${base2}/api/v1/events`, { headers: { authorization: `Bearer ${m.token}` } });
      const reader = res.body?.getReader();
      let ended = false;
      void (async () => {
        try {
          for (;;) if ((await reader?.read())?.done ?? true) break;
        } catch {
          // reset by the server
        }
        ended = true;
      })();
      return () => ended;
    };
    const first = await open();
    const second = await open();
    const third = await open();
    await vi.waitFor(() => expect(first()).toBe(true));
    expect([second(), third()]).toEqual([false, false]);
    await t2.close();
    await vi.waitFor(() => expect([second(), third()]).toEqual([true, true]));
  });
});
