import { COINS, type Coin } from '@p2p/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { btcReader } from './btc-reader.ts';
import { ethReader } from './eth-reader.ts';
import { xrpDepositAccount } from './index.ts';
import type { ChainReader, ReaderOptions } from './reader.ts';
import { trxReader } from './trx-reader.ts';
import { xrpReader } from './xrp-reader.ts';

/** Makes one coin's reader from its node URL and the app's configuration. */
type ReaderFactory = (base: ReaderOptions, config: Config) => ChainReader;

/**
 * The reader factory of each coin (DECISIONS §17). A coin missing here has no reader in this build: setting its
 * CHAIN_RPC_<COIN> is refused at start with an error in the log, and the coin stays operator-driven.
 */
const READER_FACTORIES: Partial<Record<Coin, ReaderFactory>> = {
  BTC: (base) => btcReader(base),
  ETH: (base) => ethReader(base),
  // XRP deposits all go to the platform account (XRP_DEPOSIT_ACCOUNT, else 0/0 of XPUB_XRP); the tag says whose.
  XRP: (base) => xrpReader({ ...base, depositAccount: xrpDepositAccount() }),
  TRX: (base, config) => trxReader({ ...base, apiKey: config.chainWatch.trxApiKey }),
};

/**
 * The readers of the coins that have a node configured (CHAIN_RPC_<COIN>), each with the app's network, the
 * per-call timeout CHAIN_TIMEOUT_MS and the app's log. Coins without a node get none (operator-driven deposits, DECISIONS §5).
 */
export function createChainReaders(
  config: Config,
  log: Pick<FastifyBaseLogger, 'error' | 'warn'>,
): Partial<Record<Coin, ChainReader>> {
  const readers: Partial<Record<Coin, ChainReader>> = {};
  for (const coin of COINS) {
    const url = config.chainWatch.rpc[coin];
    if (!url) continue;
    const factory = READER_FACTORIES[coin];
    if (!factory) {
      log.error(
        { coin },
        `CHAIN_RPC_${coin} is set but this build has no ${coin} reader; ${coin} stays operator-driven`,
      );
      continue;
    }
    const base: ReaderOptions = {
      url,
      network: config.chain.network,
      timeoutMs: config.chainWatch.timeoutMs,
      log,
    };
    readers[coin] = factory(base, config);
  }
  return readers;
}

/**
 * The platform accounts that receive by destination tag (DECISIONS §17: XRP_DEPOSIT_ACCOUNT, else 0/0 of
 * XPUB_XRP): the watcher matches a payment to one of them by its tag, and holds it as unmatched without a known
 * tag. Needs the chain keys installed (app.ts does it first).
 */
export function taggedDepositAccounts(): Partial<Record<Coin, string>> {
  return { XRP: xrpDepositAccount() };
}
