import { type Coin, toUnits } from '@p2p/contract';
import type { Db } from '../../db/client.ts';
import type { ReservesReader, ReservesReading } from './snapshot.ts';

/**
 * The reserves of a coin whose addresses no node here reads (DECISIONS §20): the operator's declared figure,
 * marked DECLARED so that nobody mistakes it for a verified balance; NONE when nothing was declared.
 */
export function declaredReserves(db: Db): ReservesReader {
  return async (coin: Coin): Promise<ReservesReading> => {
    const row = await db
      .selectFrom('reserve_declarations')
      .select(['amount'])
      .where('coin', '=', coin)
      .executeTakeFirst();
    if (!row) return { source: 'NONE', units: null, addresses: [] };
    return { source: 'DECLARED', units: toUnits(row.amount), addresses: [] };
  };
}

/**
 * Combines readers in order of trust: the first that knows something (source other than NONE) answers.
 * The node reader of the custody module goes first once it exists; the declared figure is the fallback.
 */
export function firstKnown(...readers: ReservesReader[]): ReservesReader {
  return async (coin) => {
    for (const read of readers) {
      const r = await read(coin);
      if (r.source !== 'NONE') return r;
    }
    return { source: 'NONE', units: null, addresses: [] };
  };
}
