import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import type { Config } from '../../config.ts';
import { AppError } from '../../errors/index.ts';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

const DEV_SUBJECT = 'mailto:operator@localhost';

/**
 * The VAPID keys of Web Push (DECISIONS §12): VAPID_PUBLIC_KEY + VAPID_PRIVATE_KEY (+ VAPID_SUBJECT, a
 * mailto: or https: URL) from the environment; outside production, when unset, a pair generated once and
 * kept in <DATA_DIR>/vapid.json (so every restart, and every instance sharing DATA_DIR, signs with the
 * same key and browsers keep their subscriptions). Production without keys: null (push is off, logged).
 */
export function loadVapidKeys(config: Config, log: FastifyBaseLogger): VapidKeys | null {
  const v = config.tradeRoom.vapid;
  if (v.publicKey && v.privateKey) {
    return { publicKey: v.publicKey, privateKey: v.privateKey, subject: v.subject ?? DEV_SUBJECT };
  }
  if (config.isProduction) {
    log.warn('VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY unset: Web Push is off');
    return null;
  }
  const file = join(config.dataDir, 'vapid.json');
  if (existsSync(file)) {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
    return { ...kept, subject: v.subject ?? DEV_SUBJECT };
  }
  const keys = webpush.generateVAPIDKeys();
  mkdirSync(config.dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  log.warn({ file }, 'generated development VAPID keys for Web Push (set VAPID_* in production)');
  return { ...keys, subject: v.subject ?? DEV_SUBJECT };
}

const PRIVATE_HOST_RE = /^(localhost|.*\.localhost|.*\.local|.*\.internal|\[.*\]|\d{1,3}(\.\d{1,3}){3})$/i;

/**
 * A push endpoint the server will POST to. Any http(s) URL outside production (local tests and browsers);
 * in production https only and never a bare IP or local name, so a member cannot aim the server's
 * requests at the internal network. 400 VALIDATION_FAILED {endpoint: INVALID_FORMAT} otherwise.
 */
export function checkEndpoint(endpoint: string, isProduction: boolean): void {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new AppError('VALIDATION_FAILED', { fields: { endpoint: 'INVALID_FORMAT' } });
  }
  const okProtocol = isProduction ? url.protocol === 'https:' : /^https?:$/.test(url.protocol);
  if (!okProtocol || (isProduction && PRIVATE_HOST_RE.test(url.hostname)) || url.username || url.password) {
    throw new AppError('VALIDATION_FAILED', { fields: { endpoint: 'INVALID_FORMAT' } });
  }
}

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * Sends one Web Push message: web-push encrypts `payload` (aes128gcm with the subscription's p256dh and
 * auth) and signs the VAPID header; the request goes out with fetch (10 s timeout, no redirects).
 * Returns the push service's HTTP status (201 = accepted; 404/410 = the subscription is gone).
 */
export async function sendPush(keys: VapidKeys, target: PushTarget, payload: string): Promise<number> {
  const details = webpush.generateRequestDetails(
    { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
    payload,
    {
      vapidDetails: { subject: keys.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: 3600,
      contentEncoding: 'aes128gcm',
    },
  );
  const res = await fetch(details.endpoint, {
    method: details.method,
    headers: details.headers as Record<string, string>,
    body: details.body ? new Uint8Array(details.body) : undefined,
    redirect: 'error',
    signal: AbortSignal.timeout(10_000),
  });
  await res.body?.cancel();
  return res.status;
}
