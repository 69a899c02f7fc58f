import { type Coin, toUnits } from '@p2p/contract';
import type { Db } from '../../db/client.ts';
import { inTx } from '../../db/tx.ts';
import { audit } from '../audit/index.ts';
import type { ReservesReader, ReservesReading } from './repo-snapshot.ts';

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

/**
 * POST /ops/api/v1/reserves/declare: the operator's figure for a coin no node reads (shown as DECLARED), audited
 * with the figure it replaced. Takes effect at the next snapshot.
 */
export async function declareReserves(db: Db, operatorId: number, coin: Coin, amount: string): Promise<void> {
  await inTx(db, async (tx) => {
    const before = await tx
      .selectFrom('reserve_declarations')
      .select('amount')
      .where('coin', '=', coin)
      .forUpdate()
      .executeTakeFirst();
    await tx
      .insertInto('reserve_declarations')
      .values({ coin, amount, declared_by: operatorId })
      .onConflict((oc) =>
        oc.column('coin').doUpdateSet({ amount, declared_by: operatorId, declared_at: new Date() }),
      )
      .execute();
    await audit(tx, {
      operatorId,
      action: 'reserves.declare',
      targetType: 'reserves',
      targetId: coin,
      data: { coin, amount, before: before?.amount ?? null },
    });
  });
}
