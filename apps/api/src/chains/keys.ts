import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COINS, type Coin } from '@p2p/contract';
import { HDKey } from '@scure/bip32';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { ChainNetwork } from './adapter.ts';
import { parseAccountKey } from './derive.ts';
import { CHAIN_ADAPTERS } from './registry.ts';

/** Where the addresses come from: one watch-only account key per coin and the network's formats. */
export interface ChainKeys {
  network: ChainNetwork;
  accounts: Record<Coin, HDKey>;
  /** 'configured' = xpubs from the environment; 'development' = derived from the local development seed. */
  source: 'configured' | 'development';
  /**
   * The platform's XRP receiving account (DECISIONS §17): XRP_DEPOSIT_ACCOUNT, else the address at 0/0 of the
   * XRP account key. Members deposit XRP to it with their wallet's destination tag.
   */
  xrpDepositAccount: string;
}

export const DEV_SEED_FILE = 'dev-chain-seed.hex';

/** One random seed per process for tests on throw-away databases. */
let processSeed: Uint8Array | undefined;

/**
 * Resolves the account keys of DECISIONS §5. Configured xpubs (config.chain.xpubs) are used as given;
 * a coin without one is an error in production. Outside production, coins without a key get one from a
 * development seed, generated once and kept in `<dataDir>/dev-chain-seed.hex` (mode 0600), or kept in
 * memory for the process when the database is a throw-away one (tests); a warning is logged. Only the
 * account-level public keys leave this function: the seed's private keys are dropped at once.
 */
export function resolveChainKeys(config: Config, log: Pick<FastifyBaseLogger, 'warn'>): ChainKeys {
  const network = config.chain.network;
  const missing = COINS.filter((c) => !config.chain.xpubs[c]);
  if (missing.length > 0 && config.isProduction) {
    throw new Error(
      `no watch-only key configured for ${missing.join(', ')} (XPUB_<COIN>); refusing to start`,
    );
  }
  const dev = missing.length > 0 ? developmentAccounts(config, network) : null;
  const accounts = {} as Record<Coin, HDKey>;
  for (const coin of COINS) {
    const configured = config.chain.xpubs[coin];
    if (configured) {
      try {
        accounts[coin] = parseAccountKey(configured);
      } catch (err) {
        throw new Error(`XPUB_${coin}: ${(err as Error).message}`);
      }
    } else if (dev) {
      accounts[coin] = dev[coin];
    }
  }
  if (dev) {
    log.warn(
      { coins: missing },
      'no XPUB_<COIN> configured: deposit addresses come from a local development seed; never send real coins to them',
    );
  }
  const source = missing.length === COINS.length ? 'development' : 'configured';
  const keys = { network, accounts, source, xrpDepositAccount: '' } satisfies ChainKeys;
  keys.xrpDepositAccount = config.chain.xrpDepositAccount ?? addressAt(keys, 'XRP', 0);
  return keys;
}

function developmentAccounts(config: Config, network: ChainNetwork): Record<Coin, HDKey> {
  const seed = developmentSeed(config);
  const root = HDKey.fromMasterSeed(seed);
  const out = {} as Record<Coin, HDKey>;
  for (const coin of COINS) {
    const path = CHAIN_ADAPTERS[coin].accountPath(network);
    // Keep only the public account key, as an operator exporting an xpub from a wallet would.
    out[coin] = HDKey.fromExtendedKey(root.derive(path).publicExtendedKey);
  }
  return out;
}

function developmentSeed(config: Config): Uint8Array {
  if (config.pgliteInMemory || config.nodeEnv === 'test') {
    processSeed ??= new Uint8Array(randomBytes(32));
    return processSeed;
  }
  const file = join(config.dataDir, DEV_SEED_FILE);
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    try {
      // 'wx': a second process starting at the same moment keeps the first one's seed.
      writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
      chmodSync(file, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  const hex = readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`${file} is not a 32-byte hex seed`);
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

/** The deposit address of derivation index `index` of `coin` (child 0/index of the account key). */
export function addressAt(keys: ChainKeys, coin: Coin, index: number): string {
  return CHAIN_ADAPTERS[coin].depositAddress(keys.accounts[coin], index, keys.network);
}

/**
 * The address of child `1/index` of `coin`'s account key (the internal chain, DECISIONS §18): 1/0 is the hot
 * address of ETH and TRX that withdrawals pay from; BTC sends its change to 1/n. Throws RangeError for an index
 * outside 0..2^31-1.
 */
export function internalAddressAt(keys: ChainKeys, coin: Coin, index: number): string {
  if (!Number.isSafeInteger(index) || index < 0 || index >= 0x80000000) {
    throw new RangeError(`derivation index out of range: ${index}`);
  }
  const child = keys.accounts[coin].deriveChild(1).deriveChild(index);
  if (!child.publicKey) throw new Error('derived key has no public key');
  return CHAIN_ADAPTERS[coin].addressFromPublicKey(child.publicKey, keys.network);
}
