import { pgCode } from '../http/errors.ts';
import type { Db, Tx } from './client.ts';

const RETRYABLE = new Set(['40001', '40P01']);

/**
 * Runs `fn` in one database transaction, retrying up to `attempts` times on a serialization failure or
 * deadlock (both leave nothing written). Every state change and its ledger entry go through here together.
 */
export async function inTx<T>(db: Db, fn: (tx: Tx) => Promise<T>, attempts = 3): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await db.transaction().execute(fn);
    } catch (err) {
      const code = pgCode(err);
      if (i >= attempts || code === undefined || !RETRYABLE.has(code)) throw err;
    }
  }
}
