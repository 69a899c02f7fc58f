import { pgCode } from '../errors/index.ts';
import type { Db, DbOrTx, Tx } from './client.ts';

const RETRYABLE = new Set(['40001', '40P01']);

/**
 * Runs `fn` in one database transaction, retrying up to `attempts` times on a serialization failure or
 * deadlock (both leave nothing written). Every state change and its ledger entry go through here together.
 * Given a transaction already open (a caller composing several steps), `fn` runs inside it: the caller's
 * transaction decides, and retrying is the outermost caller's job.
 */
export async function inTx<T>(db: DbOrTx, fn: (tx: Tx) => Promise<T>, attempts = 3): Promise<T> {
  if (db.isTransaction) return fn(db as Tx);
  for (let i = 1; ; i++) {
    try {
      return await (db as Db).transaction().execute(fn);
    } catch (err) {
      const code = pgCode(err);
      if (i >= attempts || code === undefined || !RETRYABLE.has(code)) throw err;
    }
  }
}
