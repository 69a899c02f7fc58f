import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Config } from '../../config.ts';
import { resolveJwtSecret } from '../../http/tokens.ts';

const VERSION = 'v1';
const keys = new WeakMap<Config, Buffer>();

/**
 * The 32-byte AES key that seals operators' TOTP secrets: HKDF-SHA256 of the token signing secret
 * (JWT_SECRET; outside production the dev secret under DATA_DIR), with its own `info` so it is never the
 * signing key itself. One key per Config: without JWT_SECRET on an in-memory or PostgreSQL dev setup the
 * secret is random per process, and a restart then makes enrolled secrets unreadable (reset them with the
 * CLI); production always has JWT_SECRET (docs/engineering-log.md "Operator TOTP secret at rest").
 */
export function totpKey(config: Config): Buffer {
  let key = keys.get(config);
  if (!key) {
    const ikm = resolveJwtSecret(config);
    key = Buffer.from(hkdfSync('sha256', ikm, 'p2p-operator-totp', 'totp-secret-at-rest v1', 32));
    keys.set(config, key);
  }
  return key;
}

/**
 * Seals a base32 secret with AES-256-GCM -> "v1.<iv>.<tag>.<ciphertext>" (base64url parts). The member id is
 * the additional authenticated data, so a sealed secret copied onto another operator's row does not open.
 */
export function sealTotpSecret(key: Buffer, memberId: number, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(`operator:${memberId}`));
  const ct = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), ct].map((b) => b.toString('base64url'));
  return [VERSION, ...parts].join('.');
}

/**
 * Opens what sealTotpSecret made. Throws an Error (not an AppError: a 500 that is logged) when the value
 * was sealed under another key (JWT_SECRET changed) or altered; the operator's TOTP must then be reset.
 */
export function openTotpSecret(key: Buffer, memberId: number, sealed: string): string {
  const [version, iv, tag, ct] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || !ct) throw new Error('operator TOTP secret: unknown format');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(`operator:${memberId}`));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new Error(
      'operator TOTP secret cannot be opened (JWT_SECRET changed?); reset it with npm run reset-operator-totp',
    );
  }
}
