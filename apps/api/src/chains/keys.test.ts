import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { addressAt, LEGACY_DEV_SEED_FILE, resolveChainKeys, SIGNER_ACCOUNTS_FILE } from './keys.ts';
import { TEST_ACCOUNT_KEYS } from './test-keys.ts';
import bip84 from './vectors/bip84.json' with { type: 'json' };

const root = mkdtempSync(join(tmpdir(), 'chain-keys-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const quiet = { warn: () => undefined };
let n = 0;
const freshDir = () => {
  const dir = join(root, String(n++));
  mkdirSync(dir);
  return dir;
};

function writeSignerAccounts(dir: string, network: string, xpub: string): void {
  mkdirSync(join(dir, 'signer'));
  const accounts = ['BTC', 'ETH', 'XRP', 'TRX'].map((coin) => ({ coin, xpub, hotAddress: null }));
  writeFileSync(join(dir, SIGNER_ACCOUNTS_FILE), JSON.stringify({ network, accounts }));
}

describe('resolveChainKeys (DECISIONS §5, §18)', () => {
  it('refuses to start in production without a key for every coin', () => {
    const config = loadConfig({ NODE_ENV: 'production', DATA_DIR: freshDir(), XPUB_BTC: bip84.accountZpub });
    expect(() => resolveChainKeys(config, quiet)).toThrow(/ETH.*refusing to start/);
  });

  it('uses a configured account key as given', () => {
    const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: freshDir(), XPUB_BTC: bip84.accountZpub });
    const keys = resolveChainKeys(config, quiet);
    expect(addressAt(keys, 'BTC', 1)).toBe(bip84.receive[1]!.address);
  });

  it('refuses a malformed configured key, naming the variable', () => {
    const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: freshDir(), XPUB_ETH: 'xprv-or-junk' });
    expect(() => resolveChainKeys(config, quiet)).toThrow(/XPUB_ETH/);
  });

  it("outside production, takes the signer's public accounts from DATA_DIR/signer/accounts.json", () => {
    const dir = freshDir();
    writeSignerAccounts(dir, 'mainnet', bip84.accountZpub);
    const warnings: unknown[] = [];
    const keys = resolveChainKeys(loadConfig({ NODE_ENV: 'development', DATA_DIR: dir }), {
      warn: (...args: unknown[]) => warnings.push(args),
    });
    expect(keys.source).toBe('signer');
    expect(addressAt(keys, 'BTC', 1)).toBe(bip84.receive[1]!.address);
    expect(warnings.length).toBe(1);
    expect(keys.accounts.BTC.privateKey).toBeNull();
  });

  it("refuses the signer's accounts of another network", () => {
    const dir = freshDir();
    writeSignerAccounts(dir, 'regtest', bip84.accountZpub);
    const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: dir });
    expect(() => resolveChainKeys(config, quiet)).toThrow(/CHAIN_NETWORK=regtest/);
  });

  it('without keys or a signer, uses the public TEST keys, warns, and writes no seed anywhere', () => {
    const dir = freshDir();
    const warnings: unknown[] = [];
    const keys = resolveChainKeys(loadConfig({ NODE_ENV: 'development', DATA_DIR: dir }), {
      warn: (...args: unknown[]) => warnings.push(args),
    });
    expect(keys.source).toBe('test');
    expect(keys.accounts.ETH.publicExtendedKey).toBe(TEST_ACCOUNT_KEYS.mainnet.ETH);
    expect(JSON.stringify(warnings)).toMatch(/TEST keys/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses an older development seed the signer has not adopted yet, naming the fix', () => {
    const dir = freshDir();
    writeFileSync(join(dir, LEGACY_DEV_SEED_FILE), `${'ab'.repeat(32)}\n`);
    const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: dir });
    expect(() => resolveChainKeys(config, quiet)).toThrow(/start the signer once/);
  });

  it('picks tb1 addresses on testnet, bcrt1 on regtest', () => {
    const testnet = loadConfig({ NODE_ENV: 'development', DATA_DIR: freshDir(), CHAIN_NETWORK: 'testnet' });
    expect(addressAt(resolveChainKeys(testnet, quiet), 'BTC', 0)).toMatch(/^tb1q/);
    const regtest = loadConfig({ NODE_ENV: 'development', DATA_DIR: freshDir(), CHAIN_NETWORK: 'regtest' });
    expect(addressAt(resolveChainKeys(regtest, quiet), 'BTC', 0)).toMatch(/^bcrt1q/);
  });
});
