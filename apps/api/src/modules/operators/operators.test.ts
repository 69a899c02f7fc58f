import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember } from '../../../test/fixtures.ts';
import { createTestApp, onPostgres, type TestApp } from '../../../test/helpers.ts';
import { type FreshDatabase, freshDatabase } from '../../../test/infra.ts';
import { runStartupTasks } from '../../startup.ts';
import { verifyPassword } from '../identity/index.ts';
import { ensureOperator } from './operators.ts';

const OPERATOR = { OPERATOR_LOGIN_ID: 'chiefops', OPERATOR_PASSWORD: 'Start!pass1' };

describe('operator from OPERATOR_LOGIN_ID / OPERATOR_PASSWORD at start', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(OPERATOR);
  });
  afterAll(() => t.close());

  const operators = () =>
    t.app.deps.db
      .selectFrom('members')
      .select(['id', 'login_id', 'role', 'status', 'password_hash', 'nickname', 'phone_e164', 'country_code'])
      .where('login_id', '=', 'chiefops')
      .execute();

  it('is created with role OPERATOR and an argon2id password hash', async () => {
    const rows = await operators();
    expect(rows).toHaveLength(1);
    const op = rows[0]!;
    expect(op).toMatchObject({
      role: 'OPERATOR',
      status: 'ACTIVE',
      nickname: 'chiefops',
      country_code: '82',
    });
    expect(op.phone_e164).toMatch(/^\+82\d+$/);
    expect(op.password_hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(op.password_hash, 'Start!pass1')).toBe(true);
  });

  it('is idempotent: a second start changes nothing, not even the password', async () => {
    const before = await operators();
    t.app.deps.config.operator = { loginId: 'chiefops', password: 'Other!pass2' };
    try {
      await runStartupTasks(t.app.deps, t.app.log);
      await runStartupTasks(t.app.deps, t.app.log);
    } finally {
      t.app.deps.config.operator = { loginId: 'chiefops', password: 'Start!pass1' };
    }
    expect(await operators()).toEqual(before);
  });

  it('never promotes an ordinary member who holds that login ID', async () => {
    const m = await createMember(t);
    const r = await ensureOperator(t.app.deps.db, { loginId: m.loginId.toUpperCase(), password: 'Abc!1234' });
    expect(r).toEqual({ outcome: 'conflict-member', id: m.id, loginId: m.loginId });
    const row = await t.app.deps.db
      .selectFrom('members')
      .select('role')
      .where('id', '=', m.id)
      .executeTakeFirstOrThrow();
    expect(row.role).toBe('MEMBER');
  });

  it('takes another nickname when the login ID is someone else’s nickname; refuses invalid input', async () => {
    const m = await createMember(t);
    const r = await ensureOperator(t.app.deps.db, { loginId: m.nickname, password: 'Abc!1234' });
    expect(r.outcome).toBe('created');
    const row = await t.app.deps.db
      .selectFrom('members')
      .select(['nickname', 'role'])
      .where('id', '=', r.id)
      .executeTakeFirstOrThrow();
    expect(row.role).toBe('OPERATOR');
    expect(row.nickname).not.toBe(m.nickname);
    await expect(ensureOperator(t.app.deps.db, { loginId: 'a b c', password: 'short' })).rejects.toThrow(
      /loginId: ID_CHARSET.*password: PASSWORD_LENGTH/,
    );
  });
});

const CLI = join(dirname(fileURLToPath(import.meta.url)), '../../cli/create-operator.ts');
const API_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../..');

describe.runIf(onPostgres)('create-operator CLI on PostgreSQL', () => {
  // Created in beforeAll: describe bodies run even when the block is not selected (no DATABASE_URL).
  let db: FreshDatabase | undefined;
  const url = () => db?.url ?? '';
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], {
      cwd: API_DIR,
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: url(), ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });

  beforeAll(async () => {
    db = await freshDatabase(process.env.DATABASE_URL ?? '', 't_cli');
  });
  afterAll(() => db?.drop());

  it('migrates a fresh database, creates the operator, and is idempotent', async () => {
    const first = run(['--login-id', 'deskops', '--name', 'Desk Kim', '--phone', '010-2222-3333'], {
      OPERATOR_PASSWORD: 'Desk!pass1',
    });
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/applied migrations: 001_core\.sql/);
    expect(first.stdout).toMatch(/created operator deskops \(member id \d+\) in PostgreSQL/);

    const second = run(['--login-id', 'deskops', '--password', 'Other!pass2']);
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/operator deskops already exists .*nothing changed/);
    expect(second.stdout).not.toMatch(/applied migrations/);

    const c = new pg.Client({ connectionString: url() });
    await c.connect();
    try {
      const r = await c.query<{ role: string; name: string; phone_e164: string; password_hash: string }>(
        `select role, name, phone_e164, password_hash from members where login_id = 'deskops'`,
      );
      expect(r.rows).toHaveLength(1);
      expect(r.rows[0]).toMatchObject({ role: 'OPERATOR', name: 'Desk Kim', phone_e164: '+821022223333' });
      expect(await verifyPassword(r.rows[0]!.password_hash, 'Desk!pass1')).toBe(true);
    } finally {
      await c.end();
    }
  });

  it('fails with a readable message and exit code 1 on missing or invalid input', () => {
    const missing = run(['--login-id', 'deskops2']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/a login ID and a password are required/);
    const invalid = run(['--login-id', 'x', '--password', 'abc']);
    expect(invalid.status).toBe(1);
    expect(invalid.stderr).toMatch(/invalid operator: loginId: ID_LENGTH/);
  });
});
