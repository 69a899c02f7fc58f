import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDbUnavailable, openDb } from '../src/db/client.ts';
import { createMember, type FixtureMember } from './fixtures.ts';
import { createTestApp, onPostgres, type TestApp } from './helpers.ts';
import { freePort } from './infra.ts';

/**
 * Resilience (DECISIONS §13, §14): /readyz, Cache-Control on caller-dependent answers, which errors
 * mean "the database cannot be reached", and on PostgreSQL the same process surviving every backend of its
 * database being terminated in the middle of requests and answering 503 DB_UNAVAILABLE while the database
 * refuses connections, then 200 again without a restart.
 */
let t: TestApp;
let member: FixtureMember;
let operator: FixtureMember;

beforeAll(async () => {
  t = await createTestApp();
  member = await createMember(t);
  operator = await createMember(t, { role: 'OPERATOR' });
});
afterAll(() => t?.close());

async function raw(url: string, token?: string) {
  return t.app.inject({
    method: 'GET',
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

describe('GET /readyz', () => {
  it('answers 200 JSON {status: ready, database} while the database answers', async () => {
    const res = await raw('/readyz');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({
      returnCode: 0,
      returnMessage: expect.any(String),
      returnData: { status: 'ready', database: onPostgres ? 'postgres' : 'pglite' },
    });
  });

  it('answers 503 while the process drains for shutdown, and 200 again once it does not', async () => {
    t.app.lifecycle.draining = true;
    try {
      const res = await raw('/readyz');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        returnCode: 503,
        returnMessage: 'SERVICE_UNAVAILABLE',
        returnData: { reason: 'DRAINING' },
      });
      // Draining only takes the instance out of the load balancer: requests still in reach are served.
      expect((await raw('/my', member.token)).statusCode).toBe(200);
    } finally {
      t.app.lifecycle.draining = false;
    }
    expect((await raw('/readyz')).statusCode).toBe(200);
  });
});

describe('Cache-Control (DECISIONS §13)', () => {
  it('GET /my carries no-store', async () => {
    const res = await raw('/my', member.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('an error answer carries no-store', async () => {
    const unauth = await raw('/my');
    expect(unauth.statusCode).toBe(401);
    expect(unauth.headers['cache-control']).toBe('no-store');
    const missing = await raw('/api/v1/no-such-route');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
  });

  it('an operator call carries no-store', async () => {
    const res = await raw('/ops/api/v1/members', operator.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('a route that sets its own policy keeps it', async () => {
    // Static files (here the Swagger UI's, served like the web app's by @fastify/static) set their own
    // caching; the hook only fills in a missing header.
    const res = await raw('/docs/static/swagger-ui.css');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toMatch(/^public/);
  });
});

describe('isDbUnavailable on real driver errors', () => {
  it('is true for a PostgreSQL server that refuses the connection', async () => {
    const port = await freePort();
    const dbh = await openDb({ databaseUrl: `postgres://postgres@127.0.0.1:${port}/none`, dataDir: '/tmp' });
    try {
      const err = await sql`select 1`.execute(dbh.db).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).not.toBeNull();
      expect(isDbUnavailable(err)).toBe(true);
    } finally {
      await dbh.close();
    }
  });

  it('is false for an ordinary SQL error on a working database', async () => {
    const err = await sql`select no_such_column from members`.execute(t.app.deps.db).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).not.toBeNull();
    expect(isDbUnavailable(err)).toBe(false);
    expect(isDbUnavailable(new Error('boom'))).toBe(false);
  });
});

describe.skipIf(!onPostgres)('losing the database on PostgreSQL (DECISIONS §14)', () => {
  let admin: pg.Client;
  let dbName: string;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    dbName = new URL(t.config.databaseUrl ?? '').pathname.slice(1);
  });
  afterAll(async () => {
    await admin.query(`alter database ${dbName} allow_connections true`);
    await admin.end();
  });

  const terminateAll = async () => {
    const r = await admin.query(
      'select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [dbName],
    );
    return r.rowCount ?? 0;
  };

  it('survives every backend being terminated in the middle of requests, and answers again', async () => {
    // A connection checked out by an open transaction (no pool listener on it) and a few idle pooled ones.
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let inTxError: unknown = null;
    const tx = t.app.deps.db
      .transaction()
      .execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await held;
        await sql`select 1`.execute(trx);
      })
      .catch((err: unknown) => {
        inTxError = err;
      });
    await Promise.all(Array.from({ length: 5 }, () => raw('/my', member.token)));

    let stop = false;
    let loadEnded = false;
    const statuses: { status: number; code: string }[] = [];
    const load = (async () => {
      while (!stop) {
        const batch = await Promise.all([
          raw('/my', member.token),
          raw('/readyz'),
          raw('/ops/api/v1/members', operator.token),
        ]);
        for (const r of batch) statuses.push({ status: r.statusCode, code: r.json().returnMessage });
      }
    })().finally(() => {
      loadEnded = true;
    });
    const answered = async (n: number) => {
      while (statuses.length < n && !loadEnded) await new Promise((r) => setImmediate(r));
    };
    // Let the load reach the database before cutting it off.
    await answered(6);
    const terminated = await terminateAll();
    expect(terminated).toBeGreaterThan(0);
    release();
    await tx;
    await answered(statuses.length + 6);
    stop = true;
    await load;

    // The transaction whose connection died failed as "database unavailable", nothing crashed.
    expect(isDbUnavailable(inTxError)).toBe(true);
    for (const s of statuses) {
      expect([200, 503]).toContain(s.status);
      if (s.status === 503) expect(s.code).toBe('DB_UNAVAILABLE');
    }

    // The same process answers again.
    const ready = await raw('/readyz');
    expect(ready.statusCode).toBe(200);
    const my = await raw('/my', member.token);
    expect(my.statusCode).toBe(200);
    expect(my.json().returnData.loginId).toBe(member.loginId);
  });

  it('answers 503 DB_UNAVAILABLE while the database refuses connections, then 200 again', async () => {
    expect((await raw('/my', member.token)).statusCode).toBe(200);
    await admin.query(`alter database ${dbName} allow_connections false`);
    await terminateAll();

    const my = await raw('/my', member.token);
    expect(my.statusCode).toBe(503);
    expect(my.json()).toEqual({ returnCode: 503, returnMessage: 'DB_UNAVAILABLE', returnData: null });
    expect(my.headers['cache-control']).toBe('no-store');
    const ready = await raw('/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.json().returnMessage).toBe('DB_UNAVAILABLE');
    const login = await t.call('POST', '/api/v1/auth/login', {
      body: { loginId: member.loginId, password: member.password },
    });
    expect(login.status).toBe(503);
    expect(login.body.returnMessage).toBe('DB_UNAVAILABLE');

    await admin.query(`alter database ${dbName} allow_connections true`);
    expect((await raw('/readyz')).statusCode).toBe(200);
    const back = await raw('/my', member.token);
    expect(back.statusCode).toBe(200);
    expect(back.json().returnData.loginId).toBe(member.loginId);
  });
});
