import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OpsTotpEnrollment, TokenPair } from '@p2p/contract';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember } from '../../test/fixtures.ts';
import { createTestApp, onPostgres, type TestApp } from '../../test/helpers.ts';
import { ensureOperator } from '../modules/operators/index.ts';

const CLI = join(dirname(fileURLToPath(import.meta.url)), 'reset-operator-totp.ts');
const API_DIR = join(dirname(fileURLToPath(import.meta.url)), '../..');
const PASSWORD = 'Desk!pass1';

describe.runIf(onPostgres)('reset-operator-totp CLI on PostgreSQL', () => {
  // Created in beforeAll: describe bodies run even when the block is not selected (no DATABASE_URL).
  let t: TestApp | undefined;
  const app = () => t as TestApp;
  const run = (args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], {
      cwd: API_DIR,
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: app().config.databaseUrl ?? '' },
      encoding: 'utf8',
      timeout: 60_000,
    });
  const login = (totpCode?: string) =>
    app().call<TokenPair>('POST', '/api/v1/auth/login', {
      body: { loginId: 'deskops', password: PASSWORD, ...(totpCode ? { totpCode } : {}) },
    });

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('removes a confirmed TOTP so the password alone signs in again, audited; a second run changes nothing', async () => {
    const op = await ensureOperator(app().app.deps.db, { loginId: 'deskops', password: PASSWORD });
    const token = (await login()).body.returnData.accessToken;
    const e = await app().call<OpsTotpEnrollment>('POST', '/ops/api/v1/totp/enroll', { token });
    const code = await generate({ secret: e.body.returnData.secret });
    expect((await app().call('POST', '/ops/api/v1/totp/confirm', { token, body: { code } })).status).toBe(
      200,
    );
    expect((await login()).body.returnMessage).toBe('TOTP_REQUIRED');

    const first = run(['--login-id', 'DeskOps']);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`removed the TOTP of operator deskops \\(member id ${op.id}\\)`));

    expect((await login()).status).toBe(200);
    const audit = await app()
      .app.deps.db.selectFrom('audit_log')
      .select(['operator_id', 'target_type', 'target_id', 'data'])
      .where('action', '=', 'operator.totp.reset')
      .execute();
    expect(audit).toEqual([
      { operator_id: op.id, target_type: 'member', target_id: String(op.id), data: { via: 'cli' } },
    ]);

    const second = run(['--login-id', 'deskops']);
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/operator deskops \(member id \d+\) has no TOTP; nothing changed/);
    const audits = await app()
      .app.deps.db.selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'operator.totp.reset')
      .execute();
    expect(audits).toHaveLength(1);
  });

  it('fails with exit code 1 for a missing login ID, an unknown one and an ordinary member', async () => {
    const missing = run([]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/--login-id is required/);
    const unknown = run(['--login-id', 'nosuchops']);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/no operator with login ID nosuchops/);
    const m = await createMember(app());
    const member = run(['--login-id', m.loginId]);
    expect(member.status).toBe(1);
    expect(member.stderr).toMatch(/no operator with login ID/);
  });
});
