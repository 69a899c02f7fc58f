import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ERROR_STATUS } from '@p2p/contract';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../src/http/operations.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/** The calls of SPEC §7 (method, path in Fastify form) and of the operator API of DECISIONS §10. */
const SPEC_CALLS: [string, string][] = [
  ['POST', '/api/v1/auth/login'],
  ['POST', '/api/v1/members/signup'],
  ['GET', '/my'],
  ['PUT', '/my'],
  ['POST', '/api/v1/auth/refresh'],
  ['POST', '/api/v1/auth/find-phone'],
  ['POST', '/api/v1/auth/verify-reset-password'],
  ['POST', '/api/v1/auth/reset-password'],
  ['POST', '/api/v1/members/check-id'],
  ['POST', '/api/v1/members/check-nickname'],
  ['POST', '/sms/request'],
  ['POST', '/sms/verify'],
  ['GET', '/api/v1/wallets'],
  ['POST', '/api/v1/wallets/create'],
  ['GET', '/api/v1/sell-listings'],
  ['GET', '/api/v1/sell-listings/best'],
  ['POST', '/api/v1/sell-listings'],
  ['POST', '/api/v1/sell-listings/:id/close'],
  ['POST', '/buy-orders'],
  ['POST', '/buy-orders/:id/cancel'],
  ['POST', '/buy-orders/:id/complete'],
  ['POST', '/buy-orders/:id/reject'],
  ['POST', '/buy-orders/:id/paid'],
  ['POST', '/buy-orders/:id/dispute'],
  ['GET', '/my/buy-history'],
  ['GET', '/my/sell'],
  ['GET', '/my/sell-history'],
  ['GET', '/my/buy-history/:id'],
  ['GET', '/my/sell/:id'],
  ['GET', '/my/sell-history/:id'],
  ['GET', '/transfer'],
  ['POST', '/transfer/request'],
  ['GET', '/api/v1/prices'],
  ['GET', '/ops/api/v1/listings'],
  ['POST', '/ops/api/v1/listings/:id/approve'],
  ['POST', '/ops/api/v1/listings/:id/reject'],
  ['POST', '/ops/api/v1/deposits'],
  ['GET', '/ops/api/v1/withdrawals'],
  ['POST', '/ops/api/v1/withdrawals/:id/complete'],
  ['POST', '/ops/api/v1/withdrawals/:id/reject'],
  ['GET', '/ops/api/v1/orders'],
  ['POST', '/ops/api/v1/orders/:id/cancel'],
  ['POST', '/ops/api/v1/orders/:id/complete'],
  ['GET', '/ops/api/v1/members'],
  ['POST', '/ops/api/v1/members/:id/suspend'],
  ['POST', '/ops/api/v1/members/:id/unsuspend'],
  ['GET', '/ops/api/v1/audit-log'],
  ['GET', '/ops/api/v1/ledger/check'],
];

/** Calls that exist since the foundation and this module, whatever else has landed. */
const ALWAYS: [string, string][] = [
  ['GET', '/healthz'],
  ['GET', '/api/v1/prices'],
  ['GET', '/ops/api/v1/members'],
  ['GET', '/ops/api/v1/ledger/check'],
];

const openApiPath = (p: string) => p.replace(/:(\w+)/g, '{$1}');

let t: TestApp;
let doc: { openapi: string; paths: Record<string, Record<string, unknown>> };

beforeAll(async () => {
  t = await createTestApp({}, { skipStartupTasks: true });
  const res = await t.app.inject({ method: 'GET', url: '/docs/json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(() => t.close());

describe('API reference (/docs)', () => {
  it('GET /docs/json is a valid OpenAPI 3 document', async () => {
    expect(doc.openapi).toMatch(/^3\./);
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('lists every SPEC §7 / DECISIONS §10 call the API serves, with its method', () => {
    const served = SPEC_CALLS.filter(([method, url]) => t.app.hasRoute({ method: method as 'GET', url }));
    for (const call of ALWAYS) {
      if (!served.some(([m, u]) => m === call[0] && u === call[1])) served.push(call);
    }
    const missing = served.filter(([method, url]) => !doc.paths[openApiPath(url)]?.[method.toLowerCase()]);
    expect(missing).toEqual([]);
    expect(served.length).toBeGreaterThanOrEqual(ALWAYS.length);
  });

  it('documents the envelope of a call and its bearer security', () => {
    const op = doc.paths['/ops/api/v1/members']?.get as
      | { security?: unknown; responses?: Record<string, unknown>; parameters?: { name: string }[] }
      | undefined;
    expect(op?.security).toEqual([{ bearer: [] }]);
    expect(JSON.stringify(op?.responses?.['200'])).toContain('returnData');
    expect(op?.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(['q', 'size', 'cursor']));
  });

  it('GET /docs answers the HTML viewer', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs' });
    const page =
      res.statusCode === 302 ? await t.app.inject({ method: 'GET', url: res.headers.location ?? '' }) : res;
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toMatch(/swagger/i);
  });
});

interface Operation {
  operationId?: string;
  summary?: string;
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string }[];
  responses: Record<string, { content?: Record<string, { schema: ErrorSchema }> }>;
}
interface ErrorSchema {
  properties?: { returnCode?: { enum?: number[] }; returnMessage?: { enum?: string[] } };
}
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const operations = () =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([m]) => HTTP_METHODS.includes(m))
      .map(([m, op]) => ({
        key: `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`,
        op: op as Operation,
      })),
  );
const isOpsRoute = (key: string) => key.split(' ')[1]?.startsWith('/ops/api/v1/') === true;
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

describe('a complete API document (DECISIONS §15)', () => {
  it('gives every operation an entry (http/operations.ts, or beside an operator route): a unique operationId and a summary', () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(40);
    const missing = ops
      .filter(({ key, op }) => !(OPERATIONS[key] || isOpsRoute(key)) || !op.operationId || !op.summary)
      .map((o) => o.key);
    expect(missing, 'add these routes to apps/api/src/http/operations.ts').toEqual([]);
    // An operator route keeps its entry beside the route (http/operator-api.ts), never a second one here.
    expect(Object.keys(OPERATIONS).filter(isOpsRoute)).toEqual([]);
    const ids = ops.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    // No entry outlives its route (the dev outbox exists outside production only, as here).
    const stale = Object.keys(OPERATIONS).filter((k) => !ops.some((o) => o.key === k));
    expect(stale).toEqual([]);
  });

  it('declares the error answers of every operation with the envelope and codes of the catalogue', () => {
    for (const { key, op } of operations()) {
      const errors = Object.entries(op.responses).filter(([status]) => Number(status) >= 400);
      expect(errors.length, key).toBeGreaterThan(0);
      for (const [status, response] of errors) {
        const schema = response.content?.['application/json']?.schema;
        expect(schema?.properties?.returnCode?.enum, key).toEqual([Number(status)]);
        for (const code of schema?.properties?.returnMessage?.enum ?? ['(none)']) {
          expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS], `${key} ${code}`).toBe(Number(status));
        }
      }
    }
    const transfer = doc.paths['/transfer/request']?.post as Operation;
    const codes = (s: string) =>
      transfer.responses[s]?.content?.['application/json']?.schema.properties?.returnMessage?.enum;
    expect(codes('422')).toEqual(
      expect.arrayContaining(['INSUFFICIENT_BALANCE', 'STEP_UP_REQUIRED', 'IDEMPOTENCY_KEY_REUSED']),
    );
    expect(codes('409')).toEqual(['IDEMPOTENCY_KEY_IN_PROGRESS']);
    expect(codes('401')).toEqual(['TOKEN_EXPIRED', 'UNAUTHORIZED']);
    // A new listing names where buyers' won go: it asks the step-up like a withdrawal (DECISIONS §13).
    const sell = doc.paths['/api/v1/sell-listings']?.post as Operation & {
      requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
    };
    const sellCodes = (s: string) =>
      sell.responses[s]?.content?.['application/json']?.schema.properties?.returnMessage?.enum;
    expect(sellCodes('422')).toEqual(expect.arrayContaining(['STEP_UP_REQUIRED', 'INSUFFICIENT_BALANCE']));
    expect(sellCodes('400')).toEqual(expect.arrayContaining(['INVALID_CREDENTIALS', 'CODE_MISMATCH']));
    expect(Object.keys(sell.requestBody?.content?.['application/json']?.schema?.properties ?? {})).toContain(
      'stepUp',
    );
  });

  it('declares the bearer scheme on guarded operations, none on public ones, and the Idempotency-Key header', () => {
    const op = (path: string, method: string) => doc.paths[path]?.[method] as Operation;
    expect(op('/api/v1/wallets', 'get').security).toEqual([{ bearer: [] }]);
    expect(op('/ops/api/v1/deposits', 'post').security).toEqual([{ bearer: [] }]);
    expect(op('/api/v1/auth/login', 'post').security).toEqual([]);
    expect(op('/sms/request', 'post').security).toEqual([{}, { bearer: [] }]);
    for (const { key, op: o } of operations()) {
      if (o.security?.length) expect(Object.keys(o.responses), key).toContain('401');
    }
    const headers = (o: Operation) =>
      (o.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
    expect(headers(op('/buy-orders', 'post'))).toEqual(['idempotency-key']);
    expect(headers(op('/buy-orders/{id}/cancel', 'post'))).toEqual(['idempotency-key']);
    expect(headers(op('/api/v1/wallets/create', 'post'))).toEqual([]);
  });

  /**
   * Warnings of the recommended rules that are true of this API. Calls that take no input and need no token
   * have no 4xx answer (there is no global rate limit to declare), and the code has no public licence URL.
   */
  const ALLOWED_WARNINGS = [
    'warn info-license-strict #/info/license',
    ...[
      '/healthz',
      '/readyz',
      '/api/v1/sell-listings/best',
      '/api/v1/prices',
      '/api/v1/company',
      '/api/v1/reserves',
      '/api/v1/push/vapid-public-key',
    ].map((path) => `warn operation-4xx-response #/paths/${path.replaceAll('/', '~1')}/get/responses:`),
  ];

  it('passes `redocly lint` with the recommended rules: no error, no warning but the ones listed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const bin = join(ROOT, 'node_modules/.bin/redocly');
      const run = await promisify(execFile)(bin, ['lint', file, '--format=json', '--max-problems=1000'], {
        cwd: dir,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        maxBuffer: 32 * 1024 * 1024,
      }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
      const report = JSON.parse(run.stdout) as {
        problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
      };
      const problems = report.problems
        .map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`)
        .filter((p) => !ALLOWED_WARNINGS.some((allowed) => p.startsWith(allowed)));
      expect(problems).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives every code of the error catalogue a one-line doc comment', () => {
    const source = readFileSync(join(ROOT, 'packages/contract/src/errors.ts'), 'utf8').split('\n');
    const undocumented = Object.keys(ERROR_STATUS).filter((code) => {
      const at = source.findIndex((line) => line.trim().startsWith(`${code}:`));
      return at < 1 || !/^\s*\/\*\*.*\*\/\s*$/.test(source[at - 1] ?? '');
    });
    expect(undocumented).toEqual([]);
  });
});
