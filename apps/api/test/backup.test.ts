import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../src/db/client.ts';
import { checkLedger } from '../src/ledger/check.ts';
import { BTC_PRICE, btcMarket, buyBody, operator, placeOrder } from '../src/modules/orders/test-kit.ts';
import { fundMember } from './fixtures.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { type FreshDatabase, freshDatabase } from './infra.ts';

/**
 * The backup of docs/operations.md, proved: `pg_dump -Fc` of a live database while purchases and
 * deposits keep writing, `pg_restore` into a fresh database, and the restored copy passes the ledger check
 * (with the escrow invariants) and serves. PostgreSQL only: PGlite has no pg_dump.
 */
const BASE_URL = process.env.DATABASE_URL;

function run(cmd: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((r) => child.once('exit', (code) => r({ code, stderr })));
}

describe.skipIf(!BASE_URL)('pg_dump of a live database restores into a clean ledger', () => {
  let t: TestApp;
  let restored: FreshDatabase;
  const dir = mkdtempSync(join(tmpdir(), 'p2p-backup-'));
  beforeAll(async () => {
    t = await createTestApp({ MAX_LIVE_ORDERS_PER_BUYER: '100000', ORDER_TIMER_INTERVAL_MS: '0' });
    restored = await freshDatabase(BASE_URL ?? '', 'restore');
  });
  afterAll(async () => {
    await t?.close();
    await restored?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('dumps under writes, restores, and the copy is consistent', async () => {
    const op = await operator(t);
    const { seller, buyer, id } = await btcMarket(t, op, '0.001', '1');
    const dumpFile = join(dir, 'live.dump');
    let writing = true;
    let writes = 0;
    let dumpStartedAt = -1;
    // Writes that move coins (escrow on each order, a deposit to the seller) run before, during and after the dump.
    let failure: unknown = null;
    const writer = (async () => {
      try {
        while (writing) {
          const r = await placeOrder(t, buyer, buyBody(id, 100_000, BTC_PRICE, buyer.wallet.id));
          if (r.status !== 200) throw new Error(`order refused: ${JSON.stringify(r.body)}`);
          await fundMember(t, seller.id, 'BTC', '0.001');
          writes++;
        }
      } catch (err) {
        failure = err;
        writing = false;
      }
    })();
    const writesReach = async (n: number) => {
      while (writing && writes < n) await new Promise((r) => setTimeout(r, 20));
    };
    await writesReach(5);
    dumpStartedAt = writes;
    const dump = await run('pg_dump', ['-Fc', '-f', dumpFile, '-d', t.config.databaseUrl ?? '']);
    const dumpEndedAt = writes;
    await writesReach(dumpEndedAt + 3);
    writing = false;
    await writer;
    if (failure) throw failure;
    expect(dump.stderr).toBe('');
    expect(dump.code).toBe(0);
    expect(statSync(dumpFile).size).toBeGreaterThan(0);

    const restore = await run('pg_restore', ['--no-owner', '--exit-on-error', '-d', restored.url, dumpFile]);
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);

    const copy = await openDb({ databaseUrl: restored.url, dataDir: dir });
    try {
      const ledger = await checkLedger(copy.db, t.app.deps.invariants);
      expect(ledger.problems).toEqual([]);
      // The copy is a snapshot from inside the write burst: some orders, but not those written after the dump.
      const count = async (db: typeof copy.db) =>
        Number(
          (
            await db
              .selectFrom('buy_orders')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const inCopy = await count(copy.db);
      expect(inCopy).toBeGreaterThanOrEqual(dumpStartedAt);
      expect(inCopy).toBeLessThan(await count(t.app.deps.db));
    } finally {
      await copy.close();
    }

    // The restored database is one an API instance starts on: migrations find nothing to do, /readyz answers.
    const onCopy = await createTestAppOn(restored.url);
    try {
      expect((await onCopy.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      const list = await onCopy.app.inject({ method: 'GET', url: '/api/v1/sell-listings' });
      expect(list.json().returnData.totalCount).toBe(1);
    } finally {
      await onCopy.app.close();
      await onCopy.dbh.close();
    }
  }, 120_000);
});

async function createTestAppOn(url: string) {
  const { buildApp } = await import('../src/app.ts');
  const { loadConfig } = await import('../src/config.ts');
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PRICE_PROVIDER: 'static',
    DATABASE_URL: url,
  });
  const dbh = await openDb({ databaseUrl: url, dataDir: config.dataDir });
  const app = await buildApp(config, { dbh, serveWeb: false, skipStartupTasks: true });
  return { app, dbh };
}
