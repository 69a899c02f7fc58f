import { resolve } from 'node:path';
import { DEFAULT_SIGNER_PORT, SIGNER_COINS, type SignerCoin } from '@p2p/signer-protocol';
import { z } from 'zod';

/**
 * The signer's own limits when SIGNER_MAX_TX_<COIN> / SIGNER_MAX_DAY_<COIN> are unset (coin units). Chosen as a
 * cap on what a compromised API could drain from the hot wallet before an operator notices: a few large
 * withdrawals a day at most. docs/operations.md "The signer" says how to size them.
 */
export const DEFAULT_LIMITS: Record<SignerCoin, { tx: string; day: string }> = {
  BTC: { tx: '1', day: '5' },
  ETH: { tx: '20', day: '100' },
  XRP: { tx: '50000', day: '250000' },
  TRX: { tx: '500000', day: '2500000' },
};

const amount = z.string().regex(/^\d{1,15}(\.\d{1,18})?$/, 'a decimal coin amount');

function perCoin<P extends string, T extends z.ZodType>(
  prefix: P,
  field: T,
): Record<`${P}_${SignerCoin}`, T> {
  return Object.fromEntries(SIGNER_COINS.map((c) => [`${prefix}_${c}`, field])) as Record<
    `${P}_${SignerCoin}`,
    T
  >;
}

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  SIGNER_HOST: z.string().default('127.0.0.1'),
  SIGNER_PORT: z.coerce.number().int().min(0).max(65535).default(DEFAULT_SIGNER_PORT),
  DATA_DIR: z.string().default('./data'),
  SIGNER_SEED_FILE: z.string().optional(),
  SIGNER_TOKEN: z.string().optional(),
  SIGNER_JOURNAL_FILE: z.string().optional(),
  CHAIN_NETWORK: z.enum(['mainnet', 'testnet', 'regtest']).default('mainnet'),
  ...perCoin('SIGNER_MAX_TX', amount.optional()),
  ...perCoin('SIGNER_MAX_DAY', amount.optional()),
  ...perCoin('COLD_ADDRESS', z.string().optional()),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type ChainNetwork = 'mainnet' | 'testnet' | 'regtest';

/** The signer's configuration (DECISIONS §18; README "The signer"). */
export interface SignerConfig {
  nodeEnv: 'development' | 'production' | 'test';
  isProduction: boolean;
  host: string;
  port: number;
  /** `<DATA_DIR>/signer`: development seed and token, journal, accounts.json. */
  signerDir: string;
  /** DATA_DIR itself, where the API's older development seed may be found. */
  dataDir: string;
  seedFile: string | undefined;
  token: string | undefined;
  journalFile: string;
  network: ChainNetwork;
  /** Per coin, decimal coin amounts: one transaction's and 24 h's withdrawals. */
  limits: Record<SignerCoin, { tx: string; day: string }>;
  /** COLD_ADDRESS_<COIN>: the only destination a COLD_SWEEP may pay. */
  coldAddresses: Partial<Record<SignerCoin, string>>;
  logLevel: string;
}

/** Parses the environment; throws a readable Error for an invalid value. */
export function loadSignerConfig(env: Record<string, string | undefined> = process.env): SignerConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const msg = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid signer configuration: ${msg}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  const signerDir = resolve(dataDir, 'signer');
  const limits = {} as SignerConfig['limits'];
  const coldAddresses: SignerConfig['coldAddresses'] = {};
  for (const coin of SIGNER_COINS) {
    limits[coin] = {
      tx: e[`SIGNER_MAX_TX_${coin}`] ?? DEFAULT_LIMITS[coin].tx,
      day: e[`SIGNER_MAX_DAY_${coin}`] ?? DEFAULT_LIMITS[coin].day,
    };
    const cold = e[`COLD_ADDRESS_${coin}`];
    if (cold) coldAddresses[coin] = cold;
  }
  return {
    nodeEnv: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    host: e.SIGNER_HOST,
    port: e.SIGNER_PORT,
    signerDir,
    dataDir,
    seedFile: e.SIGNER_SEED_FILE ? resolve(e.SIGNER_SEED_FILE) : undefined,
    token: e.SIGNER_TOKEN,
    journalFile: e.SIGNER_JOURNAL_FILE
      ? resolve(e.SIGNER_JOURNAL_FILE)
      : resolve(signerDir, 'journal.ndjson'),
    network: e.CHAIN_NETWORK,
    limits,
    coldAddresses,
    logLevel: e.LOG_LEVEL,
  };
}
