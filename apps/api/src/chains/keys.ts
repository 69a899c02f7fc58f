import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COINS, type Coin } from '@p2p/contract';
import { accountsResponseSchema } from '@p2p/signer-protocol';
import type { HDKey } from '@scure/bip32';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { ChainNetwork } from './adapter.ts';
import { parseAccountKey } from './derive.ts';
import { CHAIN_ADAPTERS } from './registry.ts';
import { TEST_ACCOUNT_KEYS } from './test-keys.ts';

/** Where the addresses come from: one watch-only account key per coin and the network's formats. */
export interface ChainKeys {
  network: ChainNetwork;
  accounts: Record<Coin, HDKey>;
  /**
   * 'configured' = XPUB_<COIN> from the environment; 'signer' = the development signer's public accounts
   * (<DATA_DIR>/signer/accounts.json); 'test' = the public TEST keys (test-keys.ts).
   */
  source: 'configured' | 'signer' | 'test';
  /**
   * The platform's XRP receiving account (DECISIONS §17): XRP_DEPOSIT_ACCOUNT, else the address at 0/0 of the
   * XRP account key. Members deposit XRP to it with their wallet's destination tag.
   */
  xrpDepositAccount: string;
}

/** The API's development seed before the signer existed; the signer adopts it (apps/signer/src/seed.ts). */
export const LEGACY_DEV_SEED_FILE = 'dev-chain-seed.hex';
/** What the signer publishes on start (apps/signer/src/server.ts): its account-level public keys. */
export const SIGNER_ACCOUNTS_FILE = join('signer', 'accounts.json');

/**
 * Resolves the account keys of DECISIONS §5 and §18. The API never holds a seed or a private key: configured
 * xpubs (config.chain.xpubs) are used as given, and a coin without one is an error in production. Outside
 * production a coin without one takes the signer's public account key from `<dataDir>/signer/accounts.json`
 * (written by the signer on start; `npm start` starts it first), else the public TEST keys with a warning. An
 * older development seed left in DATA_DIR without a signer's accounts is refused: the signer must adopt it first,
 * or the addresses handed out before would change.
 */
export function resolveChainKeys(config: Config, log: Pick<FastifyBaseLogger, 'warn'>): ChainKeys {
  const network = config.chain.network;
  const missing = COINS.filter((c) => !config.chain.xpubs[c]);
  if (missing.length > 0 && config.isProduction) {
    throw new Error(
      `no watch-only key configured for ${missing.join(', ')} (XPUB_<COIN>); refusing to start`,
    );
  }
  const fallback = missing.length > 0 ? fallbackKeys(config, network) : null;
  const accounts = {} as Record<Coin, HDKey>;
  for (const coin of COINS) {
    const key = config.chain.xpubs[coin] ?? fallback?.keys[coin] ?? '';
    try {
      accounts[coin] = parseAccountKey(key);
    } catch (err) {
      const name = config.chain.xpubs[coin] ? `XPUB_${coin}` : `${fallback?.source} key of ${coin}`;
      throw new Error(`${name}: ${(err as Error).message}`);
    }
  }
  if (fallback) {
    log.warn(
      { coins: missing, source: fallback.source },
      fallback.source === 'signer'
        ? 'no XPUB_<COIN> configured: deposit addresses come from the development signer; never send real coins to them'
        : 'no XPUB_<COIN> and no signer accounts: deposit addresses come from the public TEST keys; never send real coins to them',
    );
  }
  const source = fallback && missing.length === COINS.length ? fallback.source : 'configured';
  const keys = { network, accounts, source, xrpDepositAccount: '' } satisfies ChainKeys;
  keys.xrpDepositAccount = config.chain.xrpDepositAccount ?? addressAt(keys, 'XRP', 0);
  return keys;
}

function fallbackKeys(
  config: Config,
  network: ChainNetwork,
): { keys: Record<Coin, string>; source: 'signer' | 'test' } {
  const file = join(config.dataDir, SIGNER_ACCOUNTS_FILE);
  if (existsSync(file)) {
    const parsed = accountsResponseSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success) throw new Error(`${file} is not the signer's accounts`);
    if (parsed.data.network !== network) {
      throw new Error(`${file} is for CHAIN_NETWORK=${parsed.data.network}, the API runs ${network}`);
    }
    const keys = {} as Record<Coin, string>;
    for (const a of parsed.data.accounts) keys[a.coin] = a.xpub;
    return { keys, source: 'signer' };
  }
  const throwAway = config.pgliteInMemory || config.nodeEnv === 'test';
  if (!throwAway && existsSync(join(config.dataDir, LEGACY_DEV_SEED_FILE))) {
    throw new Error(
      `${join(config.dataDir, LEGACY_DEV_SEED_FILE)} holds the older development seed: start the signer once ` +
        '(npm run signer, or npm start) so that it adopts the seed and publishes its accounts',
    );
  }
  return { keys: TEST_ACCOUNT_KEYS[network === 'mainnet' ? 'mainnet' : 'testnet'], source: 'test' };
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
