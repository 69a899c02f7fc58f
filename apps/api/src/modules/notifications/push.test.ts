import { createECDH, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { BTC_PRICE, btcMarket, buyBody, operator, placeOrder } from '../orders/test-kit.ts';
import { createPushNetwork, guardedLookup, systemResolve } from './push-network.ts';

/**
 * Web Push against a local push service (DECISIONS §12): the test plays the browser (an ECDH P-256 key
 * pair and an auth secret of its own) and the push service (an HTTP endpoint); it decrypts what arrives
 * with the RFC 8291 aes128gcm scheme and checks the VAPID header names the server's public key. The push
 * service is `push.example.com`, which the test's resolver answers with a public address; the app's address
 * guard (DECISIONS §21) allows it and only then does the test's network route it to the local server. Any other
 * name goes through the system resolver and the same guard.
 */

/** example.com's address: public, never dialled. */
const PUBLIC_ADDRESS = '93.184.215.14';
const guarded = guardedLookup(async (hostname) =>
  hostname === 'push.example.com' ? [{ address: PUBLIC_ADDRESS, family: 4 }] : systemResolve(hostname),
);
const pushNetwork = createPushNetwork((hostname, options, callback) =>
  guarded(hostname, options, (err) => {
    if (err) return callback(err, '', 0);
    if (options.all) return callback(null, [{ address: '127.0.0.1', family: 4 }]);
    return callback(null, '127.0.0.1', 4);
  }),
);

const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt(body: Buffer, params: { version: 'aes128gcm'; privateKey: unknown; authSecret: string }): Buffer;
};

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

let t: TestApp;
let dataDir: string;
const received: Received[] = [];
let gone = false;
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
    res.statusCode = req.url?.startsWith('/gone') && gone ? 410 : 201;
    res.end();
  });
});
let pushBase: string;
let pushPort: number;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'p2p-push-'));
  t = await createTestApp({ DATA_DIR: dataDir }, { pushNetwork });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  pushPort = (server.address() as AddressInfo).port;
  pushBase = `http://push.example.com:${pushPort}`;
});
afterAll(async () => {
  await t?.close();
  await new Promise((r) => server.close(r));
  rmSync(dataDir, { recursive: true, force: true });
});

/** A browser's side of a subscription: the key pair and secret the push service never sees. */
function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16).toString('base64url');
  return { ecdh, auth, p256dh: ecdh.getPublicKey().toString('base64url') };
}

describe('web push', () => {
  it('serves the VAPID key kept under DATA_DIR and validates subscriptions', async () => {
    const r = await t.call<{ publicKey: string }>('GET', '/api/v1/push/vapid-public-key');
    expect(r.status).toBe(200);
    const kept = JSON.parse(readFileSync(join(dataDir, 'vapid.json'), 'utf8')) as { publicKey: string };
    expect(r.body.returnData.publicKey).toBe(kept.publicKey);
    const m = await createMember(t);
    const k = browserKeys();
    for (const endpoint of ['ftp://push.example/x', 'not a url']) {
      const bad = await t.call('POST', '/api/v1/push/subscriptions', {
        token: m.token,
        body: { endpoint, keys: { p256dh: k.p256dh, auth: k.auth } },
      });
      expect(bad.status).toBe(400);
    }
    const anon = await t.call('POST', '/api/v1/push/subscriptions', {
      body: { endpoint: `${pushBase}/x`, keys: { p256dh: k.p256dh, auth: k.auth } },
    });
    expect(anon.status).toBe(401);
  });

  it('pushes each notification encrypted to the member’s subscription; a gone subscription is dropped', async () => {
    const op = await operator(t);
    const m = await btcMarket(t, op);
    // the listing's approval went out before the seller subscribed (dispatch gathers ids for a few ms)
    await vi.waitFor(async () => {
      const waiting = await t.app.deps.db
        .selectFrom('notifications')
        .select('id')
        .where('member_id', '=', m.seller.id)
        .where('dispatched_at', 'is', null)
        .execute();
      expect(waiting).toEqual([]);
    });
    const k = browserKeys();
    const sub = await t.call('POST', '/api/v1/push/subscriptions', {
      token: m.seller.token,
      body: { endpoint: `${pushBase}/seller-1`, keys: { p256dh: k.p256dh, auth: k.auth } },
    });
    expect(sub.status).toBe(200);
    const placed = await placeOrder(t, m.buyer, buyBody(m.id, 1_000_000, BTC_PRICE, m.buyer.wallet.id));
    const orderId = (placed.body.returnData as { orderId: number }).orderId;

    await vi.waitFor(() => expect(received.filter((r) => r.path === '/seller-1')).toHaveLength(1));
    const got = received.find((r) => r.path === '/seller-1');
    if (!got) throw new Error('no push');
    expect(got.headers['content-encoding']).toBe('aes128gcm');
    expect(got.headers.ttl).toBe('3600');
    const vapidKey = (await t.call<{ publicKey: string }>('GET', '/api/v1/push/vapid-public-key')).body
      .returnData.publicKey;
    expect(got.headers.authorization).toMatch(
      new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${vapidKey}$`),
    );
    // the ciphertext does not carry the payload in the clear
    expect(got.body.includes(Buffer.from('ORDER_REQUESTED'))).toBe(false);
    const plain = ece.decrypt(got.body, { version: 'aes128gcm', privateKey: k.ecdh, authSecret: k.auth });
    expect(JSON.parse(plain.toString('utf8'))).toMatchObject({ kind: 'ORDER_REQUESTED', orderId });
    // a different browser's keys cannot read it
    const stranger = browserKeys();
    expect(() =>
      ece.decrypt(got.body, { version: 'aes128gcm', privateKey: stranger.ecdh, authSecret: stranger.auth }),
    ).toThrow();

    // the push service says the subscription is gone (410): it is removed
    gone = true;
    const k2 = browserKeys();
    await t.call('POST', '/api/v1/push/subscriptions', {
      token: m.buyer.token,
      body: { endpoint: `${pushBase}/gone-1`, keys: { p256dh: k2.p256dh, auth: k2.auth } },
    });
    await t.call('POST', `/buy-orders/${orderId}/reject`, { token: m.seller.token });
    await vi.waitFor(async () => {
      const subs = await t.app.deps.db
        .selectFrom('push_subscriptions')
        .select('id')
        .where('member_id', '=', m.buyer.id)
        .execute();
      expect(subs).toEqual([]);
    });
    expect(received.some((r) => r.path === '/gone-1')).toBe(true);

    // unsubscribe: no more pushes
    await t.call('DELETE', '/api/v1/push/subscriptions', {
      token: m.seller.token,
      body: { endpoint: `${pushBase}/seller-1` },
    });
    const count = received.length;
    await t.call('POST', `/buy-orders/${orderId}/messages`, { token: m.buyer.token, body: { text: 'why?' } });
    await vi.waitFor(async () => {
      const n = await t.app.deps.db
        .selectFrom('notifications')
        .select('dispatched_at')
        .where('order_id', '=', orderId)
        .where('kind', '=', 'MESSAGE')
        .executeTakeFirstOrThrow();
      expect(n.dispatched_at).not.toBeNull();
    });
    expect(received.length).toBe(count);
  });

  it('never pushes to an endpoint that resolves to the server’s own network, and drops that subscription', async () => {
    const op = await operator(t);
    const m = await btcMarket(t, op);
    const k = browserKeys();
    // Development accepts any http(s) URL at subscribe time: only the connection-time guard stands in the way.
    for (const endpoint of [
      `http://localhost:${pushPort}/internal`,
      `http://2130706433:${pushPort}/decimal`,
    ]) {
      const sub = await t.call('POST', '/api/v1/push/subscriptions', {
        token: m.seller.token,
        body: { endpoint, keys: { p256dh: k.p256dh, auth: k.auth } },
      });
      expect(sub.status).toBe(200);
    }
    await placeOrder(t, m.buyer, buyBody(m.id, 1_000_000, BTC_PRICE, m.buyer.wallet.id));
    await vi.waitFor(async () => {
      const subs = await t.app.deps.db
        .selectFrom('push_subscriptions')
        .select('id')
        .where('member_id', '=', m.seller.id)
        .execute();
      expect(subs).toEqual([]);
    });
    expect(received.filter((r) => r.path === '/internal' || r.path === '/decimal')).toEqual([]);
  });
});
