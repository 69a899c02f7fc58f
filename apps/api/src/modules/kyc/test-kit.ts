import { expect } from 'vitest';
import type { TestApp } from '../../../test/helpers.ts';

/** Test helpers of the kyc module (DECISIONS §19), for test files and other test kits only. */

/** A multipart body with one part `field` holding `file` (the upload routes' shape). */
export function multipartBody(file: Buffer, field = 'file', type = 'image/jpeg') {
  const boundary = '----kycTestBoundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="id.jpg"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, file, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** POST /api/v1/kyc/documents with `file`; status and parsed body. */
export async function uploadKycDocument(t: TestApp, token: string, file: Buffer, field = 'file') {
  const mp = multipartBody(file, field);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/kyc/documents',
    payload: mp.payload,
    headers: { ...mp.headers, authorization: `Bearer ${token}` },
  });
  return {
    status: res.statusCode,
    body: res.json() as { returnMessage: string; returnData: { id: number; status: string } },
  };
}

/** The code the console identity provider put in the dev outbox for `phone`. */
export async function outboxCode(t: TestApp, phone: string): Promise<string> {
  const box = await t.call<{ code: string }>('GET', `/dev/sms/outbox?phone=${encodeURIComponent(phone)}`);
  expect(box.status).toBe(200);
  return box.body.returnData.code;
}

/**
 * Brings a member to level 1 through the real API (request, the console provider's code, verify) with their
 * own name; fails the test when refused.
 */
export async function reachLevel1(
  t: TestApp,
  m: { token: string; phone: string; name: string },
): Promise<void> {
  const started = await t.call('POST', '/api/v1/kyc/identity', {
    token: m.token,
    body: { name: m.name, birthDate: '1990-05-17' },
  });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const code = await outboxCode(t, m.phone);
  const done = await t.call('POST', '/api/v1/kyc/identity/verify', { token: m.token, body: { code } });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
}
