import { COINS, type Coin, type CoinReserves } from '@p2p/contract';
import type { Db } from '../../db/client.ts';
import { inTx } from '../../db/tx.ts';
import { audit } from '../audit/index.ts';
import { latestReserves } from './queries.ts';
import { type ReservesReader, takeSnapshot } from './repo-snapshot.ts';

/**
 * POST /ops/api/v1/reserves/snapshot (DECISIONS §20): a snapshot of one coin, or of every coin, now; each audited.
 * Answers the newest snapshot of each coin taken. Throws 409 INVALID_STATE when the ledger's pending
 * withdrawals do not add up (nothing is stored then).
 */
export async function snapshotNow(
  db: Db,
  read: ReservesReader,
  operatorId: number,
  coin: Coin | undefined,
): Promise<CoinReserves[]> {
  const coins = coin ? [coin] : [...COINS];
  for (const c of coins) {
    const id = await takeSnapshot(db, c, { reading: await read(c), takenBy: operatorId });
    await inTx(db, (tx) =>
      audit(tx, {
        operatorId,
        action: 'reserves.snapshot',
        targetType: 'reserves',
        targetId: id ?? 0,
        data: { coin: c },
      }),
    );
  }
  return (await latestReserves(db)).filter((r) => coins.includes(r.coinCode));
}

/** How often an instance looks whether a coin's snapshot is due (the advisory lock and age check decide). */
const CHECK_EVERY_MS = 15 * 60_000;

/**
 * The daily snapshots (DECISIONS §20): every instance checks every CHECK_EVERY_MS (first a minute after start)
 * and takes a coin's snapshot when its newest is older than `hours`; the lock and the age check under it make one
 * snapshot per period however many instances run. Returns stop() (waits for a snapshot in progress).
 */
export function startReserveSnapshots(
  db: Db,
  read: ReservesReader,
  hours: number,
  log: { error: (obj: unknown, msg: string) => void },
): () => Promise<void> {
  if (hours <= 0) return async () => undefined;
  let running: Promise<void> | null = null;
  const tick = () => {
    running ??= (async () => {
      for (const coin of COINS) {
        try {
          await takeSnapshot(db, coin, {
            reading: await read(coin),
            takenBy: null,
            ifOlderThanMs: hours * 3_600_000,
          });
        } catch (err) {
          log.error({ err, coin }, 'reserves snapshot failed');
        }
      }
    })().finally(() => {
      running = null;
    });
  };
  const first = setTimeout(tick, 60_000);
  const every = setInterval(tick, CHECK_EVERY_MS);
  first.unref();
  every.unref();
  return async () => {
    clearTimeout(first);
    clearInterval(every);
    await running;
  };
}
