import type { Coin } from '@p2p/contract';
import type { Redis } from 'ioredis';
import type { Config } from './config.ts';
import type { Db, DbHandle } from './db/client.ts';
import type { Guards } from './http/auth.ts';
import type { AccessTokens } from './http/tokens.ts';
import type { Invariant } from './ledger/check.ts';

/** One coin's comparison of the ledger's chain holdings with the chain's (coin decimal strings). */
export type ChainCheck = () => Promise<{
  coinCode: Coin;
  ledger: string;
  onChain: string | null;
  difference: string | null;
  error: string | null;
}>;

import type { TradeListCache } from './modules/listings/index.ts';
import type { PushNetwork } from './modules/notifications/index.ts';

/**
 * What the composition root hands every module: configuration, the database, token signing, route guards,
 * the optional Redis client (shared limits and caches across API instances, DECISIONS §9) and the list of
 * ledger invariants modules contribute to the ledger check.
 */
export interface AppDeps {
  config: Config;
  dbh: DbHandle;
  db: Db;
  tokens: AccessTokens;
  guards: Guards;
  redis: Redis | null;
  invariants: Invariant[];
  /**
   * DECISIONS §18: per coin with a node, the ledger's holdings on chain against the addresses' balances; the
   * withdrawals module adds them, the ledger check answers them in `chains`.
   */
  chainChecks: ChainCheck[];
  /** The public trade list's answer cache, dropped on every committed change by any instance. */
  tradeListCache: TradeListCache;
  /** Where Web Push requests go out: agents that connect only to public addresses (DECISIONS §21). */
  pushNetwork: PushNetwork;
}
