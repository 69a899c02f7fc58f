import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELAXED_LIMITS, requestAndReadCode, signupAndLogin } from '../src/modules/identity/test-kit.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * The API core: security headers, CORS for the web dev origin, request ids, the 404
 * envelope, and logs that never hold a password, a token or an SMS code.
 */
let t: TestApp;
let logText = '';

beforeAll(async () => {
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => {
    logText += chunk.toString('utf8');
  });
  t = await createTestApp({ ...RELAXED_LIMITS, LOG_LEVEL: 'debug' }, { logStream });
});
afterAll(() => t.close());

describe('API core', () => {
  it('answers /healthz with the envelope and security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ returnCode: 0, returnData: { status: 'ok' } });
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toBeDefined();
  });

  it('echoes a sane x-request-id and makes one otherwise', async () => {
    const given = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(given.headers['x-request-id']).toBe('abc-123');
    const forged = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'a b<script>' },
    });
    expect(forged.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('allows the web dev origin by CORS and no other', async () => {
    const preflight = (origin: string) =>
      t.app.inject({
        method: 'OPTIONS',
        url: '/api/v1/auth/login',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
    expect((await preflight('http://localhost:5173')).headers['access-control-allow-origin']).toBe(
      'http://localhost:5173',
    );
    expect((await preflight('https://evil.example')).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers an unknown API path with the 404 envelope', async () => {
    const res = await t.call('GET', '/api/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ returnCode: 404, returnMessage: 'NOT_FOUND', returnData: null });
  });

  it('never logs passwords, tokens or SMS codes', async () => {
    const m = await signupAndLogin(t);
    await t.call('GET', '/my', { token: m.accessToken });
    await t.call('POST', '/api/v1/auth/refresh', { body: { refreshToken: m.refreshToken } });
    await t.call('POST', '/api/v1/auth/login', {
      body: { loginId: m.loginId, password: 'wrong-password-9' },
    });
    const code = await requestAndReadCode(t, m.phone, { token: m.accessToken });
    await new Promise((r) => setTimeout(r, 50));
    expect(logText).toContain('request completed');
    for (const secret of [m.password, 'wrong-password-9', m.accessToken, m.refreshToken]) {
      expect(logText).not.toContain(secret);
    }
    // The code as a number of its own (timestamps and durations are longer runs of digits).
    expect(logText).not.toMatch(new RegExp(`(?<!\\d)${code}(?!\\d)`));
  });
});
