import { COINS, type Coin } from '@p2p/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { withColdSweeps } from './cold-housekeeping.ts';
import { type CoinPayout, PAYOUT_FACTORIES } from './payers.ts';
import type { PayoutSigner } from './signer.ts';
import { PayoutWorker } from './worker.ts';

/** The payouts of this instance (DECISIONS §18): one worker per coin with a node, a payer and a signer. */
export interface Payouts {
  /** The coins paid on chain by a worker (approve is offered for them; the others are paid by hand). */
  readonly coins: ReadonlySet<Coin>;
  readonly workers: ReadonlyMap<Coin, PayoutWorker>;
  readonly payouts: ReadonlyMap<Coin, CoinPayout>;
  stop(): Promise<void>;
}

/**
 * Makes a payout worker for every coin with a node (CHAIN_RPC_<COIN>) and a payer in this build, when a signer
 * is given, and starts them unless `autoStart` is false (tests drive `pass()` themselves). `payers` replaces the
 * payers made from the nodes (tests). Without a signer no coin is paid on chain: every withdrawal waits for an
 * operator's `complete`, as before (DECISIONS §5).
 */
export function createPayouts(
  deps: Pick<AppDeps, 'db' | 'config'>,
  opts: {
    signer: PayoutSigner | null;
    log: FastifyBaseLogger;
    autoStart?: boolean;
    payers?: Partial<Record<Coin, CoinPayout>>;
  },
): Payouts {
  const { config } = deps;
  const workers = new Map<Coin, PayoutWorker>();
  const payouts = new Map<Coin, CoinPayout>();
  for (const coin of COINS) {
    const url = config.chainWatch.rpc[coin];
    const factory = PAYOUT_FACTORIES[coin];
    const payout =
      opts.payers?.[coin] ?? (url && factory ? factory(url, config, deps.db, opts.signer) : undefined);
    if (!payout) continue;
    payouts.set(coin, payout);
    if (!opts.signer) continue;
    const w = new PayoutWorker({
      db: deps.db,
      coin,
      payer: payout.payer,
      housekeeping: withColdSweeps(coin, payout, config, opts.signer),
      signer: opts.signer,
      confirmations: config.chainWatch.confirmations[coin],
      missingGraceSec: config.withdrawals.missingGraceSec,
      retrySec: config.withdrawals.retrySec,
      autoMax: config.withdrawals.autoMax[coin],
      pollMs: config.chainWatch.pollMs,
      leaseMs: config.chainWatch.leaseMs,
      log: opts.log,
    });
    workers.set(coin, w);
    if (opts.autoStart !== false) w.start();
  }
  if (workers.size > 0) opts.log.info({ coins: [...workers.keys()] }, 'payout workers started');
  return {
    coins: new Set(workers.keys()),
    workers,
    payouts,
    stop: async () => {
      await Promise.all([...workers.values()].map((w) => w.stop()));
    },
  };
}
