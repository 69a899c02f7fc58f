import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import pg from 'pg';

/** A fresh PostgreSQL database next to the one `baseUrl` names, and how to drop it. */
export interface FreshDatabase {
  name: string;
  url: string;
  /** Waits for the database's connections to end (a forced drop mid-goodbye shows as 57P01), then drops it. */
  drop: () => Promise<void>;
}

async function withAdmin<T>(baseUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: baseUrl });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Creates an empty database `<prefix>_<time>_<random>` on the server of `baseUrl` (tests, benches, the journey). */
export async function freshDatabase(baseUrl: string, prefix = 't'): Promise<FreshDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withAdmin(baseUrl, (c) => c.query(`create database ${name}`));
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () =>
      withAdmin(baseUrl, async (c) => {
        for (let i = 0; i < 50; i++) {
          const r = await c.query('select count(*)::int as n from pg_stat_activity where datname = $1', [
            name,
          ]);
          if (r.rows[0]?.n === 0) break;
          await new Promise((res) => setTimeout(res, 20));
        }
        await c.query(`drop database if exists ${name} with (force)`);
      }),
  };
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}
