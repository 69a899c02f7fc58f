import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Balancer, findHaproxy, startHaproxy } from '../../../scripts/cluster.mjs';
import { loadConfig } from '../src/config.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * Which address the per-IP limits see (DECISIONS §21): with TRUST_PROXY_HOPS=n the X-Forwarded-For entry n
 * places from the right (what our own proxy wrote), with 0 the socket's peer; never what the client wrote
 * further left. Proven through a per-IP limit, which is what the address is for.
 */

const apps: TestApp[] = [];
afterAll(async () => {
  for (const t of apps) await t.close();
});

const LIMIT = 3;
async function appWith(env: Record<string, string>): Promise<TestApp> {
  const t = await createTestApp({ LOOKUP_PER_IP_PER_HOUR: String(LIMIT), ...env });
  apps.push(t);
  return t;
}

/** check-id spends the per-IP lookup budget before it looks; returns the status. */
async function lookup(t: TestApp, forwardedFor: string | undefined, peer = '127.0.0.1'): Promise<number> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/members/check-id',
    payload: JSON.stringify({ loginId: 'someone1' }),
    headers: {
      'content-type': 'application/json',
      ...(forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }),
    },
    remoteAddress: peer,
  });
  return res.statusCode;
}

describe('TRUST_PROXY_HOPS: the client address behind exactly that many proxies', () => {
  it('reads TRUST_PROXY_HOPS, keeps TRUST_PROXY=1 as one hop, and defaults to trusting nothing', () => {
    expect(loadConfig({}).trustProxyHops).toBe(0);
    expect(loadConfig({ TRUST_PROXY_HOPS: '2' }).trustProxyHops).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxyHops).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxyHops).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '1', TRUST_PROXY_HOPS: '0' }).trustProxyHops).toBe(0);
    expect(() => loadConfig({ TRUST_PROXY_HOPS: '-1' })).toThrow(/TRUST_PROXY_HOPS/);
  });

  it('one hop: the rightmost address counts; what the client put further left does not', async () => {
    const t = await appWith({ TRUST_PROXY_HOPS: '1' });
    // A new forged address each time, the same real client (the proxy's entry on the right): limited.
    const forged: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) forged.push(await lookup(t, `203.0.113.${i + 1}, 10.30.0.1`));
    expect(forged).toEqual([200, 200, 200, 429, 429]);
    // Distinct real clients behind the one proxy (the socket is always the proxy): each has its own budget.
    const clients: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) clients.push(await lookup(t, `10.31.0.${i + 1}`, '10.0.0.9'));
    expect(clients).toEqual([200, 200, 200, 200, 200]);
  });

  it('the older TRUST_PROXY=1 means one hop too (the rightmost address, not the leftmost)', async () => {
    const t = await appWith({ TRUST_PROXY: '1' });
    const forged: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) forged.push(await lookup(t, `198.51.100.${i + 1}, 10.32.0.1`));
    expect(forged).toEqual([200, 200, 200, 429]);
  });

  it('two hops: the entry second from the right', async () => {
    const t = await appWith({ TRUST_PROXY_HOPS: '2' });
    const forged: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++)
      forged.push(await lookup(t, `198.51.100.${i + 1}, 10.33.0.1, 10.0.0.${i + 1}`));
    expect(forged).toEqual([200, 200, 200, 429]);
  });

  it('zero hops (the default): the header is ignored, the socket is the client', async () => {
    const t = await appWith({});
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) statuses.push(await lookup(t, `10.34.0.${i + 1}`, '10.0.0.7'));
    expect(statuses).toEqual([200, 200, 200, 429]);
    // Another socket address still has its budget, whatever header it sends.
    expect(await lookup(t, '10.0.0.7', '10.0.0.8')).toBe(200);
  });
});

const HAPROXY = findHaproxy();

describe.skipIf(!HAPROXY)('the cluster’s HAProxy replaces X-Forwarded-For (real HAProxy)', () => {
  let backend: Server | undefined;
  let lb: Balancer | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'p2p-xff-'));
  afterAll(async () => {
    await lb?.stop();
    await new Promise((r) => (backend ? backend.close(r) : r(undefined)));
    rmSync(dir, { recursive: true, force: true });
  });

  it('the backend sees only the connecting address, whatever the client sent', async () => {
    const seen: (string | undefined)[] = [];
    backend = createServer((req, res) => {
      if (req.url !== '/readyz') seen.push(req.headers['x-forwarded-for'] as string | undefined);
      res.end('ok');
    });
    await new Promise<void>((r) => backend?.listen(0, '127.0.0.1', r));
    const address = backend.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    lb = await startHaproxy({ servers: [{ name: 'echo', port }], dir });
    const sent = [undefined, '203.0.113.7', '203.0.113.8, 10.0.0.1', 'unknown', '::1'];
    for (const forged of sent) {
      const res = await fetch(`${lb.url}/x`, {
        headers: forged === undefined ? {} : { 'x-forwarded-for': forged },
      });
      expect(res.status).toBe(200);
    }
    expect(seen).toEqual(sent.map(() => '127.0.0.1'));
  });
});
