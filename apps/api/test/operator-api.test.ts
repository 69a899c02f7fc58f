import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPS_API_PREFIX } from '../src/http/operator-api.ts';
import { createMember } from './fixtures.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/*
 * The operator API is guarded once (src/http/operator-api.ts): every route Fastify has under /ops/api/v1,
 * read from the router itself rather than a list, refuses a call without a token (401 UNAUTHORIZED) and a
 * member's token (403 FORBIDDEN) before it reads the input, and answers an operator. A route added later
 * outside the operator plugin, or one the plugin failed to guard, fails here.
 */
let t: TestApp;
let routes: { method: string; url: string }[] = [];
const tokens: Record<string, string> = {};

/**
 * Every registered method and path under the prefix, from Fastify's route tree (HEAD twins left out). A
 * line of the tree is `<indent of 4 per level>├── <segment> (<METHODS>)`; a segment continues its parent's path.
 */
function registeredOpsRoutes(tree: string): { method: string; url: string }[] {
  const stack: string[] = [];
  const found: { method: string; url: string }[] = [];
  for (const line of tree.split('\n')) {
    const m = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?/.exec(line);
    if (!m) continue;
    const depth = (m[1] ?? '').length / 4;
    stack.length = depth;
    const path = (stack[depth - 1] ?? '') + (m[2] ?? '');
    stack.push(path);
    if (!m[3] || !path.startsWith(`${OPS_API_PREFIX}/`)) continue;
    for (const method of m[3].split(', ')) {
      if (method !== 'HEAD') found.push({ method, url: path.replace(/:\w+/g, '1') });
    }
  }
  return found;
}

beforeAll(async () => {
  t = await createTestApp();
  routes = registeredOpsRoutes(t.app.printRoutes({ commonPrefix: false }));
  tokens.member = (await createMember(t)).token;
  tokens.operator = (await createMember(t, { role: 'OPERATOR' })).token;
});
afterAll(() => t.close());

describe('the operator API is guarded once (DECISIONS §8, §10)', () => {
  it('reads every operator route of the router, as many as the API document lists', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith(`${OPS_API_PREFIX}/`))
      .flatMap(([, ops]) => Object.keys(ops));
    expect(documented.length).toBeGreaterThan(20);
    expect(routes.length).toBe(documented.length);
    expect(routes).toContainEqual({ method: 'POST', url: '/ops/api/v1/withdrawals/1/complete' });
  });

  it('refuses every route without a token and with a member token, whatever the body', async () => {
    for (const { method, url } of routes) {
      for (const payload of [undefined, '{bad json', JSON.stringify({ reason: 'x' })]) {
        const headers = payload ? { 'content-type': 'application/json' } : undefined;
        const anonymous = await t.app.inject({ method: method as 'GET', url, payload, headers });
        expect([anonymous.statusCode, anonymous.json().returnMessage], `${method} ${url}`).toEqual([
          401,
          'UNAUTHORIZED',
        ]);
        const member = await t.app.inject({
          method: method as 'GET',
          url,
          payload,
          headers: { ...headers, authorization: `Bearer ${tokens.member}` },
        });
        expect([member.statusCode, member.json().returnMessage], `${method} ${url}`).toEqual([
          403,
          'FORBIDDEN',
        ]);
      }
    }
  });

  it('lets an operator through to the route (no 401 or 403)', async () => {
    for (const { method, url } of routes.filter((r) => r.method === 'GET')) {
      const res = await t.app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${tokens.operator}` },
      });
      expect([401, 403], `${method} ${url}`).not.toContain(res.statusCode);
    }
  });
});
