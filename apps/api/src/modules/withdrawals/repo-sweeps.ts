import type { Coin } from '@p2p/contract';
import { type Selectable, sql, type Updateable } from 'kysely';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { ChainSweepsTable } from './tables.ts';

/**
 * The SQL of sweeps (DECISIONS §18, `chain_sweeps`): deposit addresses of account-based chains swept to the hot
 * address once their deposits are credited. Reads the wallets module's `wallets` and `transfers` in the same
 * statement to find what is due: one query per pass instead of one per wallet.
 */

export type SweepRow = Selectable<ChainSweepsTable>;

/** A wallet with credited deposits not covered by a sweep yet. */
export interface SweepCandidate {
  walletId: number;
  address: string;
  derivationIndex: number;
  /** The newest credited deposit of the wallet. */
  throughId: number;
}

/**
 * Up to `limit` wallets of `coin` with a chain deposit credited after the newest sweep that did not fail, and
 * no sweep in flight.
 */
export async function sweepCandidates(db: DbOrTx, coin: Coin, limit: number): Promise<SweepCandidate[]> {
  const r = await sql<{ wallet_id: number; address: string; derivation_index: number; through_id: number }>`
    select w.id as wallet_id, w.address, w.derivation_index, max(t.id) as through_id
    from wallets w join transfers t on t.wallet_id = w.id
    where w.coin = ${coin} and t.type = 'DEPOSIT' and t.dest_type = 'EXTERNAL' and t.status = 'COMPLETED'
      and t.chain_amount is not null
      and t.id > coalesce((select max(s.through_transfer_id) from chain_sweeps s
        where s.wallet_id = w.id and s.status <> 'FAILED'), 0)
      and not exists (select 1 from chain_sweeps s where s.wallet_id = w.id
        and s.status in ('PREPARED', 'BROADCAST'))
    group by w.id, w.address, w.derivation_index
    order by w.id limit ${limit}`.execute(db);
  return r.rows.map((x) => ({
    walletId: Number(x.wallet_id),
    address: x.address,
    derivationIndex: Number(x.derivation_index),
    throughId: Number(x.through_id),
  }));
}

/** Inserts a sweep (PREPARED, without its intent yet: its id names the request). */
export async function insertSweep(
  tx: Tx,
  s: { coin: Coin; walletId: number; from: string; to: string; throughId: number },
): Promise<SweepRow> {
  return tx
    .insertInto('chain_sweeps')
    .values({
      coin: s.coin,
      wallet_id: s.walletId,
      from_address: s.from,
      to_address: s.to,
      through_transfer_id: s.throughId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The open sweeps of `coin` in `status`, oldest first. */
export async function openSweeps(
  db: DbOrTx,
  coin: Coin,
  status: 'PREPARED' | 'BROADCAST',
  limit: number,
): Promise<SweepRow[]> {
  return db
    .selectFrom('chain_sweeps')
    .selectAll()
    .where('coin', '=', coin)
    .where('status', '=', status)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** A sweep under its row lock. */
export async function lockSweep(tx: Tx, id: number): Promise<SweepRow | undefined> {
  return tx.selectFrom('chain_sweeps').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** Writes a change of a sweep and answers it. */
export async function updateSweep(tx: Tx, id: number, set: Updateable<ChainSweepsTable>): Promise<SweepRow> {
  return tx
    .updateTable('chain_sweeps')
    .set(set)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deletes a PREPARED sweep whose signing was refused (nothing was signed). */
export async function deletePreparedSweep(tx: Tx, id: number): Promise<void> {
  await tx.deleteFrom('chain_sweeps').where('id', '=', id).where('status', '=', 'PREPARED').execute();
}
