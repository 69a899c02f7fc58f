import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, devXpubs, findHaproxy, startCluster } from '../../../scripts/cluster.mjs';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { type DbHandle, openDb } from '../src/db/client.ts';
import { checkLedger } from '../src/ledger/check.ts';
import {
  BTC_PRICE,
  buyBody,
  openListing,
  operator,
  type Trader,
  trader,
} from '../src/modules/orders/test-kit.ts';
import { type FixtureMember, markPhoneVerified } from './fixtures.ts';
import { type TestApp, TRUST_OFF } from './helpers.ts';
import { type FreshDatabase, freshDatabase } from './infra.ts';

/**
 * The chaos test (DECISIONS §9, §14): two API instances as real processes behind a real HAProxy on
 * one fresh PostgreSQL database; a burst of purchases, completions and external withdrawals through the
 * balancer; one instance SIGKILLed while the burst runs. Afterwards every request that got a 2xx answer is
 * in the database, the ledger check (with the escrow invariants) is clean, and the survivor serves alone.
 * Before the burst, the same cluster shows that a forged X-Forwarded-For buys no new per-IP budget (DECISIONS §21).
 */
const BASE_URL = process.env.DATABASE_URL;
const HAPROXY = findHaproxy();
const reason = !BASE_URL
  ? 'needs PostgreSQL (DATABASE_URL): PGlite is one process'
  : !HAPROXY
    ? 'needs haproxy (apt-get install -y haproxy; .ci/run installs it)'
    : '';
// A valid mainnet segwit address that is nobody's wallet (BIP-173 vector).
const EXTERNAL_BTC = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const BUYERS = 6;
const WITHDRAWERS = 3;
const ROUNDS = 6;
// The per-IP lookup budget of every instance; small, so 100 forged requests run far past it.
const LOOKUPS_PER_IP = 20;

type Answer = { status: number; body: { returnData: Record<string, unknown> } | null };

describe.skipIf(reason !== '')(
  `chaos: two instances behind HAProxy, one SIGKILLed mid-burst ${reason && `(skipped: ${reason})`}`,
  () => {
    let fresh: FreshDatabase;
    let dbh: DbHandle;
    let t: TestApp;
    let cluster: Cluster;
    const logs: string[] = [];

    beforeAll(async () => {
      fresh = await freshDatabase(BASE_URL ?? '', 'chaos');
      const env = {
        NODE_ENV: 'development',
        LOG_LEVEL: 'warn',
        PRICE_PROVIDER: 'static',
        SEED_DEMO: '0',
        JWT_SECRET: randomBytes(32).toString('hex'),
        ...devXpubs(),
        MAX_LIVE_ORDERS_PER_BUYER: '1000',
        STEP_UP_MAX_FAILURES: '1000',
        ORDER_TIMER_INTERVAL_MS: '500',
        LOOKUP_PER_IP_PER_HOUR: String(LOOKUPS_PER_IP),
        // DECISIONS §19's checks are not what this test is about (their own tests run them)
        ...TRUST_OFF,
      };
      // An in-process app on the same database and secret prepares members and listings with the fixtures;
      // the tokens it signs are good on every instance, as the cluster's whole point requires.
      const config = loadConfig({
        ...env,
        LOG_LEVEL: 'silent',
        ORDER_TIMER_INTERVAL_MS: '0',
        DATABASE_URL: fresh.url,
      });
      dbh = await openDb({ databaseUrl: fresh.url, dataDir: config.dataDir });
      const app = await buildApp(config, { dbh, serveWeb: false, skipStartupTasks: true });
      await app.ready();
      t = {
        app,
        config,
        call: async (method, url, o = {}) => {
          const res = await app.inject({
            method: method as 'GET',
            url,
            payload: o.body === undefined ? undefined : JSON.stringify(o.body),
            headers: {
              ...(o.body === undefined ? {} : { 'content-type': 'application/json' }),
              ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
            },
          });
          return { status: res.statusCode, body: res.json() };
        },
        assertLedger: async () => undefined,
        close: async () => undefined,
      };
      cluster = await startCluster({
        instances: 2,
        databaseUrl: fresh.url,
        redisUrl: null,
        env,
        log: (l) => logs.push(l),
      });
    }, 120_000);

    afterAll(async () => {
      await cluster?.stop();
      await t?.app.close();
      await dbh?.close();
      await fresh?.drop();
    }, 60_000);

    /** One request through the balancer; a dropped connection answers status 0. */
    const send = async (method: string, path: string, token: string, body?: unknown): Promise<Answer> => {
      try {
        const res = await fetch(`${cluster.url}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(20_000),
        });
        const text = await res.text();
        return { status: res.status, body: text.startsWith('{') ? JSON.parse(text) : null };
      } catch {
        return { status: 0, body: null };
      }
    };

    it('a forged X-Forwarded-For does not buy a new per-IP budget through the balancer (DECISIONS §21)', async () => {
      // 100 lookups, each claiming another client address: they all come from this one address, so they all
      // spend its budget. The instances keep their limits in memory here (no Redis), so each one grants its
      // own budget at most: 2 x 20 answers, the other 60 refused.
      const statuses: number[] = [];
      for (let i = 0; i < 100; i++) {
        const forged = i % 2 ? `203.0.${i}.${(i * 7) % 250}` : `198.51.100.${i}, 10.9.${i}.1`;
        const res = await fetch(`${cluster.url}/api/v1/members/check-id`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': forged },
          body: JSON.stringify({ loginId: `forged${i}` }),
        });
        await res.arrayBuffer();
        statuses.push(res.status);
      }
      const answered = statuses.filter((s) => s === 200).length;
      const refused = statuses.filter((s) => s === 429).length;
      expect(answered + refused).toBe(100);
      expect(answered).toBeGreaterThanOrEqual(LOOKUPS_PER_IP);
      expect(answered).toBeLessThanOrEqual(LOOKUPS_PER_IP * cluster.instances.length);
      expect(refused).toBeGreaterThanOrEqual(100 - LOOKUPS_PER_IP * cluster.instances.length);
    });

    it('keeps every acknowledged write, leaves nothing half-written, and the survivor serves', async () => {
      const op = await operator(t);
      const sellers: Trader[] = [];
      const listings: number[] = [];
      for (let i = 0; i < 3; i++) {
        const s = await trader(t, 'BTC', '10', 'Park Younghee');
        sellers.push(s);
        listings.push(
          await openListing(t, s, op, { minQty: '0.001', maxQty: '10', unitPriceKrw: BTC_PRICE }),
        );
      }
      const buyers = await Promise.all(Array.from({ length: BUYERS }, () => trader(t, 'BTC')));
      const withdrawers = await Promise.all(Array.from({ length: WITHDRAWERS }, () => trader(t, 'BTC', '1')));

      const acked = {
        orders: [] as { id: number; buyerId: number }[],
        completed: [] as number[],
        withdrawals: [] as { id: number; memberId: number }[],
      };
      const ackedCount = () => acked.orders.length + acked.completed.length + acked.withdrawals.length;
      const failures: number[] = [];
      const victim = cluster.instances[0];
      const survivor = cluster.instances[1];
      if (!victim || !survivor) throw new Error('two instances expected');
      let killedAt = -1;
      let ackedAfterKill = 0;
      const note = (ok: boolean, status: number) => {
        if (!ok) failures.push(status);
        else if (killedAt >= 0) ackedAfterKill++;
        // Mid-burst: once a quarter of the burst is acknowledged, while every worker is still going.
        if (killedAt < 0 && ackedCount() >= (BUYERS * ROUNDS) / 4) {
          killedAt = ackedCount();
          victim.child.kill('SIGKILL');
        }
      };

      const purchase = async (buyer: Trader, round: number) => {
        // DECISIONS §11: each purchase needs its own fresh phone check.
        await markPhoneVerified(t, buyer.phoneE164, 'member', buyer.id);
        const listingIdx = (buyer.id + round) % listings.length;
        const r = await send(
          'POST',
          '/buy-orders',
          buyer.token,
          buyBody(listings[listingIdx] ?? 0, 100_000, BTC_PRICE, buyer.wallet.id),
        );
        const ok = r.status === 200;
        const id = Number(r.body?.returnData?.orderId);
        if (ok) acked.orders.push({ id, buyerId: buyer.id });
        note(ok, r.status);
        if (!ok || round % 2 === 1) return;
        const seller = sellers[listingIdx] as FixtureMember;
        const done = await send('POST', `/buy-orders/${id}/complete`, seller.token, {
          txid: `chaos-${id}`,
          stepUp: { password: seller.password },
        });
        if (done.status === 200) acked.completed.push(id);
        note(done.status === 200, done.status);
      };
      const withdraw = async (m: Trader) => {
        const r = await send('POST', '/transfer/request', m.token, {
          fromWalletId: m.wallet.id,
          destType: 'EXTERNAL',
          amount: '0.01',
          destExternalAddress: EXTERNAL_BTC,
          stepUp: { password: m.password },
        });
        if (r.status === 200)
          acked.withdrawals.push({ id: Number(r.body?.returnData?.transferId), memberId: m.id });
        note(r.status === 200, r.status);
      };

      await Promise.all([
        ...buyers.map(async (b) => {
          for (let round = 0; round < ROUNDS; round++) await purchase(b, round);
        }),
        ...withdrawers.map(async (m) => {
          for (let round = 0; round < ROUNDS; round++) await withdraw(m);
        }),
      ]);

      // The kill happened mid-burst: writes were acknowledged both before and after it.
      expect(killedAt).toBeGreaterThan(0);
      expect(ackedAfterKill).toBeGreaterThan(0);
      await new Promise((r) =>
        victim.child.exitCode !== null || victim.child.signalCode
          ? r(undefined)
          : victim.child.once('exit', r),
      );
      expect(victim.child.signalCode).toBe('SIGKILL');
      // Whatever failed, failed as an error answer or a dropped connection, never as a 2xx that did not stick.
      for (const s of failures) expect([0, 502, 503, 504]).toContain(s);

      // HAProxy takes the dead instance out; from then on the survivor answers everything.
      for (let i = 0; i < 100; i++) {
        if ((await cluster.serverStates())[victim.name]?.startsWith('DOWN')) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect((await cluster.serverStates())[victim.name]).toMatch(/^DOWN/);
      expect((await cluster.serverStates())[survivor.name]).toBe('UP');
      const buyer = buyers[0] as Trader;
      for (let i = 0; i < 5; i++) {
        await markPhoneVerified(t, buyer.phoneE164, 'member', buyer.id);
        const r = await send(
          'POST',
          '/buy-orders',
          buyer.token,
          buyBody(listings[0] ?? 0, 100_000, BTC_PRICE, buyer.wallet.id),
        );
        expect(r.status).toBe(200);
        acked.orders.push({ id: Number(r.body?.returnData?.orderId), buyerId: buyer.id });
      }
      expect((await fetch(`${cluster.url}/readyz`)).status).toBe(200);

      // Every acknowledged write is in the database, as acknowledged.
      const db = dbh.db;
      const orders = await db.selectFrom('buy_orders').select(['id', 'buyer_id', 'status']).execute();
      const byId = new Map(orders.map((o) => [Number(o.id), o]));
      for (const o of acked.orders) expect(byId.get(o.id)?.buyer_id, `order ${o.id}`).toBe(o.buyerId);
      for (const id of acked.completed) expect(byId.get(id)?.status, `order ${id}`).toBe('COMPLETED');
      const transfers = await db
        .selectFrom('transfers')
        .select(['id', 'member_id', 'type'])
        .where('type', '=', 'WITHDRAW')
        .execute();
      const tById = new Map(transfers.map((x) => [Number(x.id), x]));
      for (const w of acked.withdrawals)
        expect(tById.get(w.id)?.member_id, `withdrawal ${w.id}`).toBe(w.memberId);
      expect(acked.orders.length).toBeGreaterThan(BUYERS);
      expect(acked.completed.length).toBeGreaterThan(0);
      expect(acked.withdrawals.length).toBeGreaterThan(0);

      // Nothing is half-written: the ledger check through the balancer (the survivor) and in-process agree.
      const check = await send('GET', '/ops/api/v1/ledger/check', op.token);
      expect(check.status).toBe(200);
      expect(check.body?.returnData).toMatchObject({ ok: true, problems: [] });
      const direct = await checkLedger(db, t.app.deps.invariants);
      expect(direct.problems).toEqual([]);
    }, 120_000);
  },
);
