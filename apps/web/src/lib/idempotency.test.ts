import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { idempotencyKeyFor, outcomeUnknown, settleIdempotencyKey } from './idempotency';

// DECISIONS §15 on the client: one key per submit, kept while the outcome is unknown.
describe('idempotency keys of the web client', () => {
  const body = { fromWalletId: 1, destType: 'INTERNAL', amount: '1', destInternalAddress: 'x' };

  it('keeps the key of an unsettled request for an identical retry, and only for that', () => {
    const first = idempotencyKeyFor('POST', '/transfer/request', body);
    expect(first).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(idempotencyKeyFor('POST', '/transfer/request', { ...body })).toBe(first);
    expect(idempotencyKeyFor('POST', '/transfer/request', { ...body, amount: '2' })).not.toBe(first);
    expect(idempotencyKeyFor('POST', '/buy-orders', body)).not.toBe(first);
  });

  it('makes a new key once the request is settled', () => {
    const first = idempotencyKeyFor('POST', '/buy-orders/7/cancel', undefined);
    settleIdempotencyKey('POST', '/buy-orders/7/cancel', undefined);
    expect(idempotencyKeyFor('POST', '/buy-orders/7/cancel', undefined)).not.toBe(first);
  });

  it('treats a retyped step-up password as the same submit', () => {
    const withPassword = (password: string) => ({ ...body, destType: 'EXTERNAL', stepUp: { password } });
    const first = idempotencyKeyFor('POST', '/transfer/request', withPassword('one'));
    expect(idempotencyKeyFor('POST', '/transfer/request', withPassword('two'))).toBe(first);
  });

  it('settles on every answer but a lost one, a 5xx, a 401, a rate limit or a request still running', () => {
    expect(outcomeUnknown(0, '')).toBe(true);
    expect(outcomeUnknown(503, 'DB_UNAVAILABLE')).toBe(true);
    expect(outcomeUnknown(401, 'TOKEN_EXPIRED')).toBe(true);
    expect(outcomeUnknown(429, 'RATE_LIMITED')).toBe(true);
    expect(outcomeUnknown(409, 'IDEMPOTENCY_KEY_IN_PROGRESS')).toBe(true);
    expect(outcomeUnknown(200, 'OK')).toBe(false);
    expect(outcomeUnknown(422, 'INSUFFICIENT_BALANCE')).toBe(false);
    expect(outcomeUnknown(409, 'INVALID_STATE')).toBe(false);
  });
});

describe('send() over HTTP', () => {
  let server: Server;
  const seen: (string | undefined)[] = [];
  let dropNext = false;

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.headers['idempotency-key'] as string | undefined);
      req.resume();
      if (dropNext) {
        dropNext = false;
        req.socket.destroy(); // the answer is lost: the client cannot know whether the move happened
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ returnCode: 0, returnMessage: 'OK', returnData: { ok: true } }));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    vi.stubEnv('VITE_API_BASE', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await new Promise((done) => server.close(done));
  });

  it('sends the same key again after a lost answer, a new one after an answer, none when not asked', async () => {
    const { send } = await import('./api-client');
    const opts = { body: { listingId: 3, krwAmount: 1000 }, idempotent: true };
    dropNext = true;
    await expect(send('POST', '/buy-orders', opts, 'tok')).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
    expect(await send('POST', '/buy-orders', opts, 'tok')).toEqual({ ok: true });
    expect(await send('POST', '/buy-orders', opts, 'tok')).toEqual({ ok: true });
    await send('POST', '/api/v1/members/check-id', { body: { loginId: 'abc' } }, null);
    const [lost, retried, next, plain] = seen;
    expect(lost).toMatch(/^[0-9a-f-]{36}$/);
    expect(retried).toBe(lost);
    expect(next).toMatch(/^[0-9a-f-]{36}$/);
    expect(next).not.toBe(lost);
    expect(plain).toBeUndefined();
  });
});
