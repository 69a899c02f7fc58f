/**
 * The two databases of bench/growth.ts: **small** (the demo seed plus a growth at the minimum sizes) and
 * **grown** (a copy of small, `CREATE DATABASE ... TEMPLATE`, plus the growth at --scale). Kept side by side so
 * the benchmark can read both in the same seconds, and so a run can reuse them (BENCH_SMALL_DB_URL and
 * BENCH_GROWN_DB_URL) without seeding and growing again: the full size takes about 20 minutes on this machine.
 *
 * The actors of each database are found again from its rows: the busy member of the small one is login `ga1`,
 * of the grown one `gb1` (growth-sql.ts tags), their newest purchase and sale, and their listing.
 */
import { writeFileSync } from 'node:fs';
import pg from 'pg';
import type { buildApp } from '../apps/api/src/app.ts';
import { openSession } from '../apps/api/src/modules/identity/index.ts';
import { DEMO_OPERATOR_LOGIN_ID } from '../apps/api/src/modules/seed/demo-data.ts';
import { grow, sizesAt } from './growth-sql.ts';

/** What the endpoints need of one database: the busy member, their orders and wallet, the operator, tokens. */
export interface Actors {
  busyId: number;
  busyOrderId: number;
  busySaleId: number;
  listingId: number;
  walletId: number;
  phoneLocal: string;
  operatorId: number;
  member: string;
  ops: string;
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** The database named `name` on the server of `base`, as a URL. */
export function dbUrl(base: string, name: string): string {
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * Copies database `from` to `to` (same server) as a template: `from` must have no other connection. Then grows
 * the copy at `scale` (growth tag 'b') and runs VACUUM ANALYZE, as autovacuum leaves a live database.
 */
export async function growCopy(
  base: string,
  from: string,
  to: string,
  scale: number,
  operatorId: number,
  out: (s: string) => void,
): Promise<string> {
  await withClient(base, (c) => c.query(`create database ${to} template ${from}`));
  const url = dbUrl(base, to);
  const sizes = sizesAt(scale);
  out(`growing ${to} at scale ${scale}: ${JSON.stringify(sizes)}\n`);
  const t0 = performance.now();
  await grow(url, sizes, operatorId, 'b', out);
  const t1 = performance.now();
  await withClient(url, (c) => c.query('vacuum analyze'));
  out(
    `  grown in ${((t1 - t0) / 1000).toFixed(0)} s, vacuum analyze ${((performance.now() - t1) / 1000).toFixed(0)} s\n`,
  );
  return url;
}

/**
 * Moves the live orders' deadlines two hours ahead of now (never back), before each measuring: the growth set
 * them minutes after it ran, and a kept database read later would otherwise settle its due orders inside the
 * measured reads (the console's order list settles due orders first), measuring expiry instead of the read.
 */
export async function freshDeadlines(url: string): Promise<number> {
  return withClient(url, async (c) => {
    const r = await c.query(
      `update buy_orders set
         payment_deadline = case when status = 'REQUESTED'
           then greatest(payment_deadline, now() + interval '2 hours') else payment_deadline end,
         release_deadline = case when status = 'PAID'
           then greatest(release_deadline, now() + interval '2 hours') else release_deadline end
       where (status = 'REQUESTED' and payment_deadline < now() + interval '2 hours')
          or (status = 'PAID' and release_deadline < now() + interval '2 hours')`,
    );
    return r.rowCount ?? 0;
  });
}

/** The busy member of growth `tag` and the demo operator in the database of `app`, with fresh tokens. */
export async function actorsOf(app: Awaited<ReturnType<typeof buildApp>>, tag: 'a' | 'b'): Promise<Actors> {
  const r = await withClient(app.deps.config.databaseUrl ?? '', (c) =>
    c.query<Record<string, string>>(
      `select m.id as busy, m.phone_e164 as phone,
              (select max(id) from buy_orders where buyer_id = m.id) as bought,
              (select max(id) from buy_orders where seller_id = m.id) as sold,
              (select min(id) from sell_listings where seller_id = m.id) as listing,
              (select min(id) from wallets where member_id = m.id) as wallet,
              (select id from members where login_id = $2) as operator
       from members m where m.login_id = $1`,
      [`g${tag}1`, DEMO_OPERATOR_LOGIN_ID],
    ),
  );
  const row = r.rows[0];
  if (!row?.operator)
    throw new Error(`no busy member g${tag}1 or operator in ${app.deps.config.databaseUrl}`);
  const member = await openSession(app.deps, { id: Number(row.busy), role: 'MEMBER' });
  const ops = await openSession(app.deps, { id: Number(row.operator), role: 'OPERATOR' });
  return {
    busyId: Number(row.busy),
    busyOrderId: Number(row.bought),
    busySaleId: Number(row.sold),
    listingId: Number(row.listing),
    walletId: Number(row.wallet),
    phoneLocal: `0${String(row.phone).slice(3)}`,
    operatorId: Number(row.operator),
    member: member.accessToken,
    ops: ops.accessToken,
  };
}

/** Writes the kept databases' URLs to `file` (the lead re-measures with them later, without growing again). */
export function noteDbs(file: string, small: string, grown: string, scale: number): void {
  const text = [
    `# bench/growth.ts databases, kept ${new Date().toISOString()}, grown at scale ${scale}`,
    `BENCH_SMALL_DB_URL=${small}`,
    `BENCH_GROWN_DB_URL=${grown}`,
    `# re-measure: BENCH_SMALL_DB_URL=... BENCH_GROWN_DB_URL=... DATABASE_URL=... npx tsx bench/growth.ts`,
    '',
  ].join('\n');
  writeFileSync(file, text);
}
