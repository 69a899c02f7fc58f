import { randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SignerConfig } from './config.ts';

/** The API's development seed before the signer existed (DECISIONS §5); adopted so old addresses stay payable. */
export const LEGACY_DEV_SEED_FILE = 'dev-chain-seed.hex';
export const DEV_SEED_FILE = 'seed.hex';
export const DEV_TOKEN_FILE = 'token';

/** Reads a BIP-32 seed written as hex (16..64 bytes); throws naming the file otherwise. */
export function readSeedFile(file: string): Uint8Array {
  const hex = readFileSync(file, 'utf8').trim().toLowerCase();
  if (!/^([0-9a-f]{2}){16,64}$/.test(hex)) throw new Error(`${file} is not a hex BIP-32 seed (16..64 bytes)`);
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

/** Creates `file` with `content` (mode 0600) unless it exists; a second process starting at once keeps the first's. */
function createOnce(file: string, content: () => string): void {
  if (existsSync(file)) return;
  try {
    writeFileSync(file, content(), { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

/**
 * The seed the signer signs with (DECISIONS §18). Production: SIGNER_SEED_FILE, else it refuses to start.
 * Elsewhere: SIGNER_SEED_FILE when given, else `<DATA_DIR>/signer/seed.hex` (0600), created once: a copy of
 * the API's older `<DATA_DIR>/dev-chain-seed.hex` when that exists, so deposit addresses handed out before
 * stay payable, otherwise 32 random bytes.
 */
export function loadSeed(config: SignerConfig): { seed: Uint8Array; source: string } {
  if (config.seedFile) return { seed: readSeedFile(config.seedFile), source: config.seedFile };
  if (config.isProduction) {
    throw new Error(
      'SIGNER_SEED_FILE is required in production (a file holding the hex seed); refusing to start',
    );
  }
  mkdirSync(config.signerDir, { recursive: true, mode: 0o700 });
  const file = join(config.signerDir, DEV_SEED_FILE);
  const legacy = join(config.dataDir, LEGACY_DEV_SEED_FILE);
  if (!existsSync(file) && existsSync(legacy)) {
    readSeedFile(legacy);
    try {
      copyFileSync(legacy, file, 1 /* COPYFILE_EXCL */);
      chmodSync(file, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  createOnce(file, () => `${randomBytes(32).toString('hex')}\n`);
  return { seed: readSeedFile(file), source: file };
}

/**
 * The shared secret of the HMAC (DECISIONS §18). Production: SIGNER_TOKEN of at least 32 characters or a
 * refusal. Elsewhere: SIGNER_TOKEN, else `<DATA_DIR>/signer/token` (0600), created once; the API reads it there.
 */
export function loadToken(config: SignerConfig): string {
  if (config.token) {
    if (config.isProduction && config.token.length < 32) {
      throw new Error('SIGNER_TOKEN must be at least 32 characters in production; refusing to start');
    }
    return config.token;
  }
  if (config.isProduction) throw new Error('SIGNER_TOKEN is required in production; refusing to start');
  mkdirSync(config.signerDir, { recursive: true, mode: 0o700 });
  const file = join(config.signerDir, DEV_TOKEN_FILE);
  createOnce(file, () => `${randomBytes(32).toString('hex')}\n`);
  return readFileSync(file, 'utf8').trim();
}
