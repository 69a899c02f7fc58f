import { createHmac, timingSafeEqual } from 'node:crypto';

/** Header names of the signer's request authentication (DECISIONS §18). */
export const SIGNER_TIMESTAMP_HEADER = 'x-signer-timestamp';
export const SIGNER_SIGNATURE_HEADER = 'x-signer-signature';

/** How far a request's timestamp may be from the signer's clock, either way (ms). */
export const SIGNER_WINDOW_MS = 60_000;

/** What the MAC covers: the method, the path (with its query, as sent) and the raw body bytes as sent. */
export interface SignedParts {
  method: string;
  path: string;
  rawBody: string;
}

/** hex HMAC-SHA256(token, timestamp + "\n" + METHOD + "\n" + path + "\n" + rawBody). */
export function requestMac(token: string, timestamp: string, parts: SignedParts): string {
  return createHmac('sha256', token)
    .update(`${timestamp}\n${parts.method.toUpperCase()}\n${parts.path}\n${parts.rawBody}`)
    .digest('hex');
}

/** The two headers that authenticate one call to the signer at `nowMs` (unix ms). */
export function signRequest(token: string, parts: SignedParts, nowMs: number): Record<string, string> {
  const timestamp = String(Math.trunc(nowMs));
  return {
    [SIGNER_TIMESTAMP_HEADER]: timestamp,
    [SIGNER_SIGNATURE_HEADER]: requestMac(token, timestamp, parts),
  };
}

export type VerifyResult =
  | { ok: true; signature: string }
  | { ok: false; code: 'SIGNER_AUTH' | 'SIGNER_STALE' };

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Checks the headers of one call: SIGNER_AUTH when a header is missing or the MAC does not match (compared in
 * constant time), SIGNER_STALE when the timestamp is more than SIGNER_WINDOW_MS from `nowMs`. The MAC is checked
 * first, so an unauthenticated caller learns nothing about the clock. Replays are the caller's to refuse: the
 * returned signature is the key to remember for the window.
 */
export function verifyRequest(
  token: string,
  headers: Record<string, string | string[] | undefined>,
  parts: SignedParts,
  nowMs: number,
): VerifyResult {
  const timestamp = header(headers, SIGNER_TIMESTAMP_HEADER);
  const given = header(headers, SIGNER_SIGNATURE_HEADER);
  if (!timestamp || !given || !/^\d{1,16}$/.test(timestamp) || !/^[0-9a-f]{64}$/.test(given)) {
    return { ok: false, code: 'SIGNER_AUTH' };
  }
  const expected = Buffer.from(requestMac(token, timestamp, parts), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(given, 'hex'))) return { ok: false, code: 'SIGNER_AUTH' };
  if (Math.abs(nowMs - Number(timestamp)) > SIGNER_WINDOW_MS) return { ok: false, code: 'SIGNER_STALE' };
  return { ok: true, signature: given };
}
