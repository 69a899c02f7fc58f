import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
