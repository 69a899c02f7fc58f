import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../config.ts';

/** The key that seals ID documents, with a short id (first 8 hex of its SHA-256) stored beside each one. */
export interface DocKey {
  id: string;
  key: Buffer;
}

const keys = new WeakMap<Config, DocKey>();
const KEY_FILE = 'kyc-doc-key';

function parseKey(text: string): Buffer {
  const t = text.trim();
  return /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
}

/**
 * The AES-256 key of ID documents (DECISIONS §19): KYC_DOC_KEY (64 hex digits or base64 of 32 bytes);
 * production refuses to start without it; outside production a random key generated once under DATA_DIR
 * (`kyc-doc-key`, mode 0600), or per process when the database is in memory (nothing outlives it anyway).
 */
export function resolveDocKey(config: Config): DocKey {
  const known = keys.get(config);
  if (known) return known;
  let key: Buffer;
  if (config.kyc.docKey) key = parseKey(config.kyc.docKey);
  else if (config.isProduction)
    throw new Error('KYC_DOC_KEY is required in production (32 bytes, hex or base64)');
  else if (config.pgliteInMemory) key = randomBytes(32);
  else {
    const file = join(config.dataDir, KEY_FILE);
    if (!existsSync(file)) {
      mkdirSync(config.dataDir, { recursive: true });
      writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
    }
    key = parseKey(readFileSync(file, 'utf8'));
  }
  if (key.length !== 32) throw new Error('KYC_DOC_KEY must be 32 bytes');
  const doc = { id: createHash('sha256').update(key).digest('hex').slice(0, 8), key };
  keys.set(config, doc);
  return doc;
}

const aad = (memberId: number) => Buffer.from(`kyc-document:member:${memberId}`);

/** AES-256-GCM of `bytes` -> iv (12) | tag (16) | ciphertext; the member id is the additional data. */
export function sealDocument(k: DocKey, memberId: number, bytes: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', k.key, iv);
  cipher.setAAD(aad(memberId));
  const ct = Buffer.concat([cipher.update(bytes), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ct]);
}

/**
 * Opens what sealDocument made. Throws an Error (a logged 500) when it was sealed under another key or for
 * another member, or was altered.
 */
export function openDocument(k: DocKey, memberId: number, sealed: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', k.key, sealed.subarray(0, 12));
  decipher.setAAD(aad(memberId));
  decipher.setAuthTag(sealed.subarray(12, 28));
  return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]);
}
