import { type ChainStatus, COINS, type Coin, toUnits } from '@p2p/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { ChainReader } from '../../chains/reader.ts';
import { taggedDepositAccounts } from '../../chains/readers.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { watcherStatusRows } from './queries.ts';
import { DepositWatcher } from './watcher.ts';

/** The deposit watchers of this instance, one per coin with a reader (DECISIONS §17). */
export interface DepositWatchers {
  readonly watchers: ReadonlyMap<Coin, DepositWatcher>;
  /** Stops every watcher (waits for passes in flight, gives the leases up). */
  stop(): Promise<void>;
}

/**
 * Makes the watchers of the coins in `readers` with the configuration of DECISIONS §17 and starts them unless
 * `autoStart` is false (tests drive `scan()` themselves). No reader, no watcher: that coin stays operator-driven.
 */
export function createDepositWatchers(
  deps: Pick<AppDeps, 'db' | 'config'>,
  readers: Partial<Record<Coin, ChainReader>>,
  log: FastifyBaseLogger,
  autoStart = true,
): DepositWatchers {
  const cfg = deps.config.chainWatch;
  const tagged = taggedDepositAccounts();
  const watchers = new Map<Coin, DepositWatcher>();
  for (const coin of COINS) {
    const reader = readers[coin];
    if (!reader) continue;
    const w = new DepositWatcher({
      db: deps.db,
      coin,
      reader,
      network: deps.config.chain.network,
      requiredConfirmations: cfg.confirmations[coin],
      minDeposit: toUnits(cfg.depositMin[coin]),
      startHeight: cfg.startHeights[coin],
      taggedAccount: tagged[coin],
      pollMs: cfg.pollMs,
      timeoutMs: cfg.timeoutMs,
      leaseMs: cfg.leaseMs,
      log,
    });
    watchers.set(coin, w);
    if (autoStart) w.start();
  }
  if (watchers.size > 0) log.info({ coins: [...watchers.keys()] }, 'chain watchers started');
  return {
    watchers,
    stop: async () => {
      await Promise.all([...watchers.values()].map((w) => w.stop()));
    },
  };
}

/**
 * GET /ops/api/v1/chain/status (DECISIONS §17): one entry per coin of the registry, from what the active
 * watchers stored (so every instance answers the same); `configured` says whether this instance has a reader.
 */
export async function chainStatusOf(
  db: DbOrTx,
  config: AppDeps['config'],
  watched: ReadonlySet<Coin>,
): Promise<ChainStatus[]> {
  const rows = new Map((await watcherStatusRows(db)).map((r) => [r.coin, r]));
  return COINS.map((coin) => {
    const r = rows.get(coin);
    const scanned = r?.height ?? null;
    const node = r?.node_height ?? null;
    return {
      coinCode: coin,
      configured: watched.has(coin),
      scannedHeight: scanned,
      nodeHeight: node,
      lagBlocks: scanned !== null && node !== null ? Math.max(0, node - scanned) : null,
      lastScanAt: r?.last_scan_at ? new Date(r.last_scan_at).toISOString() : null,
      lastError: r?.last_error ?? null,
      lastErrorAt: r?.last_error_at ? new Date(r.last_error_at).toISOString() : null,
      nodeUp: r?.node_up ?? null,
      requiredConfirmations: config.chainWatch.confirmations[coin],
      watcherActive: r?.active ?? false,
    };
  });
}
