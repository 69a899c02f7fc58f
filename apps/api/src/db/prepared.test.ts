import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FreshDatabase, freshDatabase } from '../../test/infra.ts';
import { type DbHandle, openDb } from './client.ts';

const BASE_URL = process.env.DATABASE_URL;

/**
 * Named prepared statements on PostgreSQL (prepared.ts): a parameterized statement is prepared once
 * per connection and reused, and so is a single select without them; other statements without parameters are
 * not; results are the same either way.
 */
describe.skipIf(!BASE_URL)('prepared statements on the PostgreSQL pool', () => {
  let fresh: FreshDatabase;
  let dbh: DbHandle;
  beforeAll(async () => {
    fresh = await freshDatabase(BASE_URL ?? '', 'prep');
    dbh = await openDb({ databaseUrl: fresh.url, dataDir: '' });
  });
  afterAll(async () => {
    await dbh?.close();
    await fresh?.drop();
  });

  it('prepares a parameterized statement once on a connection and answers with its values each time', async () => {
    await dbh.db.connection().execute(async (conn) => {
      const probe = (n: number) => sql<{ v: number }>`select ${n}::int + 1 as v`.execute(conn);
      expect((await probe(1)).rows).toEqual([{ v: 2 }]);
      expect((await probe(41)).rows).toEqual([{ v: 42 }]);
      const prepared = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
        conn,
      );
      // the probe once (two uses); the view query has no parameters, and as a single select it is named too
      expect(prepared.rows.filter((r) => r.statement.includes('::int + 1'))).toHaveLength(1);
      expect(prepared.rows.filter((r) => r.statement.includes('pg_prepared_statements'))).toHaveLength(1);
      await sql`begin`.execute(conn);
      await sql`commit`.execute(conn);
      const again = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
        conn,
      );
      // transaction control is never named
      expect(again.rows.filter((r) => /^\s*(begin|commit)/i.test(r.statement))).toHaveLength(0);
    });
  });

  it('leaves statements that select every column unnamed, so a column added by a migration cannot break them', async () => {
    await dbh.db.connection().execute(async (conn) => {
      await sql`create table prep_star (id int primary key)`.execute(conn);
      await sql`insert into prep_star values (1)`.execute(conn);
      const all = () =>
        conn
          .selectFrom('prep_star' as never)
          .selectAll()
          .where('id' as never, '=', 1 as never)
          .execute();
      const counted = () =>
        sql<{ n: number }>`select count(*)::int as n from prep_star where id = ${1}`.execute(conn);
      expect(await all()).toEqual([{ id: 1 }]);
      expect((await counted()).rows).toEqual([{ n: 1 }]);
      // a rolling deploy: another instance's migration adds a column while this connection keeps its statements
      await sql`alter table prep_star add column note text`.execute(conn);
      expect(await all()).toEqual([{ id: 1, note: null }]);
      expect((await counted()).rows).toEqual([{ n: 1 }]);
      const prepared = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
        conn,
      );
      expect(prepared.rows.filter((r) => r.statement.includes('prep_star'))).toHaveLength(1);
    });
  });

  it('runs an insert whose conflict target is a partial index matched by a parameter', async () => {
    await dbh.db.connection().execute(async (conn) => {
      await sql`create table prep_dep (k text, kind text)`.execute(conn);
      await sql`create unique index prep_dep_k on prep_dep (k) where kind = 'DEPOSIT'`.execute(conn);
      const add = (k: string) =>
        conn
          .insertInto('prep_dep' as never)
          .values({ k, kind: 'DEPOSIT' } as never)
          .onConflict((oc) =>
            oc
              .column('k' as never)
              .where('kind' as never, '=', 'DEPOSIT' as never)
              .doNothing(),
          )
          .returning('k' as never)
          .execute();
      for (let i = 0; i < 7; i++) expect(await add(`t${i}`)).toHaveLength(1);
      expect(await add('t0')).toHaveLength(0);
    });
  });

  it('prepares nothing when turned off (PG_PREPARED_STATEMENTS=0)', async () => {
    const plain = await openDb({ databaseUrl: fresh.url, dataDir: '', preparedStatements: false });
    try {
      await plain.db.connection().execute(async (conn) => {
        expect((await sql<{ v: number }>`select ${2}::int * 3 as v`.execute(conn)).rows).toEqual([{ v: 6 }]);
        const prepared = await sql<{
          n: number;
        }>`select count(*)::int as n from pg_prepared_statements`.execute(conn);
        expect(prepared.rows).toEqual([{ n: 0 }]);
      });
    } finally {
      await plain.close();
    }
  });

  it('runs statements without parameters and multi-statement scripts as before', async () => {
    await dbh.db.transaction().execute(async (tx) => {
      await dbh.execScript(
        tx,
        'create temporary table prep_t (x int) on commit drop; insert into prep_t values (7);',
      );
      const r = await sql<{ x: number }>`select x from prep_t where x = ${7}`.execute(tx);
      expect(r.rows).toEqual([{ x: 7 }]);
    });
  });
});
