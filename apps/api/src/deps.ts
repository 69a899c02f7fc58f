import type { Redis } from 'ioredis';
import type { Config } from './config.ts';
import type { Db, DbHandle } from './db/client.ts';
import type { Guards } from './http/auth.ts';
import type { AccessTokens } from './http/tokens.ts';
import type { Invariant } from './ledger/check.ts';
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
  /** The public trade list's answer cache, dropped on every committed change by any instance. */
  tradeListCache: TradeListCache;
  /** Where Web Push requests go out: agents that connect only to public addresses (DECISIONS §21). */
  pushNetwork: PushNetwork;
}
