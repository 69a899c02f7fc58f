import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { addressAt, DEV_SEED_FILE, resolveChainKeys } from './keys.ts';
import bip84 from './vectors/bip84.json' with { type: 'json' };

const dir = mkdtempSync(join(tmpdir(), 'chain-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const quiet = { warn: () => undefined };

describe('resolveChainKeys (DECISIONS §5)', () => {
  it('refuses to start in production without a key for every coin', () => {
    const config = loadConfig({ NODE_ENV: 'production', DATA_DIR: dir, XPUB_BTC: bip84.accountZpub });
    expect(() => resolveChainKeys(config, quiet)).toThrow(/ETH.*refusing to start/);
  });

  it('uses a configured account key as given', () => {
    const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: dir, XPUB_BTC: bip84.accountZpub });
    const keys = resolveChainKeys(config, quiet);
    expect(addressAt(keys, 'BTC', 1)).toBe(bip84.receive[1]!.address);
  });

  it('refuses a malformed configured key, naming the variable', () => {
    const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: dir, XPUB_ETH: 'xprv-or-junk' });
    expect(() => resolveChainKeys(config, quiet)).toThrow(/XPUB_ETH/);
  });

  it('outside production, generates a development seed once under DATA_DIR (0600), warns, and reuses it', () => {
    const warnings: unknown[] = [];
    const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: dir });
    const a = resolveChainKeys(config, { warn: (...args: unknown[]) => warnings.push(args) });
    const file = join(dir, DEV_SEED_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const seed = readFileSync(file, 'utf8');
    const b = resolveChainKeys(config, quiet);
    expect(readFileSync(file, 'utf8')).toBe(seed);
    expect(addressAt(a, 'ETH', 3)).toBe(addressAt(b, 'ETH', 3));
    expect(a.source).toBe('development');
    expect(warnings.length).toBe(1);
    // Only public keys are kept.
    expect(a.accounts.BTC.privateKey).toBeNull();
  });

  it('picks tb1 addresses on testnet', () => {
    const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: dir, CHAIN_NETWORK: 'testnet' });
    expect(addressAt(resolveChainKeys(config, quiet), 'BTC', 0)).toMatch(/^tb1q/);
  });
});
