import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import type { Config } from '../../config.ts';
import { AppError } from '../../errors/index.ts';
import { createPushNetwork, type PushNetwork, refuseSpecialLiteral } from './push-network.ts';

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

// Names that only mean something on a local network (RFC 6761, RFC 8375, common intranet suffixes).
const LOCAL_NAME_RE = /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa)$/i;

/**
 * A push endpoint the server will POST to, checked cheaply at subscribe time. Any http(s) URL outside production
 * (local tests and browsers); in production https only and never an IP literal, a single-label or trailing-dot
 * name or a local suffix. This is only the first sieve: what protects the internal network is the check of the
 * resolved address when the push goes out (push-network.ts, DECISIONS §21). 400 VALIDATION_FAILED
 * {endpoint: INVALID_FORMAT} otherwise.
 */
export function checkEndpoint(endpoint: string, isProduction: boolean): void {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new AppError('VALIDATION_FAILED', { fields: { endpoint: 'INVALID_FORMAT' } });
  }
  const okProtocol = isProduction ? url.protocol === 'https:' : /^https?:$/.test(url.protocol);
  if (!okProtocol || (isProduction && looksLocal(url.hostname)) || url.username || url.password) {
    throw new AppError('VALIDATION_FAILED', { fields: { endpoint: 'INVALID_FORMAT' } });
  }
}

function looksLocal(hostname: string): boolean {
  if (hostname.startsWith('[') || isIP(hostname) !== 0) return true;
  if (hostname.endsWith('.') || !hostname.includes('.')) return true;
  return LOCAL_NAME_RE.test(hostname);
}

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

let defaultNetwork: PushNetwork | undefined;
/** The guarded agents over the system resolver, made on first use. */
function systemNetwork(): PushNetwork {
  defaultNetwork ??= createPushNetwork();
  return defaultNetwork;
}

/**
 * Sends one Web Push message: web-push encrypts `payload` (aes128gcm with the subscription's p256dh and
 * auth) and signs the VAPID header; the request goes out through `network`'s agents (10 s timeout, redirects
 * not followed), which connect only to public addresses (DECISIONS §21, push-network.ts). Returns the push
 * service's HTTP status (201 = accepted; 404/410 = the subscription is gone). Throws PushAddressRefused for an
 * endpoint that is or resolves to a loopback, private, link-local, CGNAT, metadata or other special address,
 * before any byte is sent; other network failures as Node reports them.
 */
export async function sendPush(
  keys: VapidKeys,
  target: PushTarget,
  payload: string,
  network: PushNetwork = systemNetwork(),
): Promise<number> {
  const details = webpush.generateRequestDetails(
    { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
    payload,
    {
      vapidDetails: { subject: keys.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: 3600,
      contentEncoding: 'aes128gcm',
    },
  );
  const url = new URL(details.endpoint);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`push endpoint protocol ${url.protocol} refused`);
  }
  refuseSpecialLiteral(url);
  const secure = url.protocol === 'https:';
  const send = secure ? https.request : http.request;
  return new Promise<number>((resolve, reject) => {
    const req = send(
      url,
      {
        method: details.method,
        headers: details.headers as Record<string, string | number>,
        agent: secure ? network.https : network.http,
        signal: AbortSignal.timeout(10_000),
      },
      (res) => {
        // the answer's body is of no use; reading it frees the socket
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(details.body ?? undefined);
  });
}
