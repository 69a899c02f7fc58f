import type { Coin, WithdrawalStatus } from '@p2p/contract';
import { type Selectable, sql, type Updateable } from 'kysely';
import { cappedCount } from '../../db/capped-count.ts';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import type { DB } from '../../db/schema.ts';
import type { CappedTotal } from '../../http/page.ts';
import type { WithdrawalAttemptsTable } from './tables.ts';

type TransfersTable = DB['transfers'];

/**
 * The SQL of external withdrawals (DECISIONS §5, §18): their rows in `transfers` (the wallets module inserts a
 * withdrawal when a member asks; from then on this module moves it: approve, pay, complete, fail, reject),
 * their attempts, the payout worker's lease and the nonces of sending addresses. Lease times come from the
 * database's clock.
 */

export type WithdrawalRow = Selectable<TransfersTable> & { login_id: string; attempts: number };
export type AttemptRow = Selectable<WithdrawalAttemptsTable>;

/** External withdrawals with their member's login id and their count of attempts (the operator's queue). */
function externalWithdrawals(db: DbOrTx) {
  return db
    .selectFrom('transfers as t')
    .innerJoin('members as m', 'm.id', 't.member_id')
    .selectAll('t')
    .select('m.login_id')
    .select(
      sql<number>`(select count(*) from withdrawal_attempts a where a.transfer_id = t.id)::int`.as(
        'attempts',
      ),
    )
    .where('t.type', '=', 'WITHDRAW')
    .where('t.dest_type', '=', 'EXTERNAL');
}

/** One page of external withdrawals of `status`, oldest first, after id `afterId` when given. */
export async function withdrawalsOfStatus(
  db: Db,
  status: WithdrawalStatus,
  afterId: number | undefined,
  limit: number,
): Promise<WithdrawalRow[]> {
  let query = externalWithdrawals(db).where('t.status', '=', status);
  if (afterId !== undefined) query = query.where('t.id', '>', afterId);
  return query.orderBy('t.id').limit(limit).execute();
}

/** How many external withdrawals are in `status`. */
export async function countWithdrawals(db: Db, status: WithdrawalStatus, coin?: Coin): Promise<number> {
  let q = db
    .selectFrom('transfers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('type', '=', 'WITHDRAW')
    .where('dest_type', '=', 'EXTERNAL')
    .where('status', '=', status);
  if (coin) q = q.where('coin', '=', coin);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/**
 * How many external withdrawals are in `status`, counted up to TOTAL_COUNT_CAP (issue 27): the COMPLETED ones
 * are every withdrawal ever paid.
 */
export function countWithdrawalsCapped(db: Db, status: WithdrawalStatus): Promise<CappedTotal> {
  return cappedCount(
    db,
    db
      .selectFrom('transfers')
      // literals: a prepared statement's generic plan for "any status" scans the table for a rare one
      .where('status', '=', sql.lit(status))
      .where('type', '=', sql.lit('WITHDRAW'))
      .where('dest_type', '=', sql.lit('EXTERNAL')),
  );
}

/** One withdrawal with its member's login id, or undefined. */
export async function withdrawalById(db: DbOrTx, id: number): Promise<WithdrawalRow | undefined> {
  return externalWithdrawals(db).where('t.id', '=', id).executeTakeFirst();
}

/** An external withdrawal under its row lock, or undefined. */
export async function lockWithdrawal(tx: Tx, id: number): Promise<Selectable<TransfersTable> | undefined> {
  return tx
    .selectFrom('transfers')
    .selectAll()
    .where('id', '=', id)
    .where('type', '=', 'WITHDRAW')
    .where('dest_type', '=', 'EXTERNAL')
    .forUpdate()
    .executeTakeFirst();
}

/** Writes a change of a withdrawal row. */
export async function updateWithdrawal(
  db: DbOrTx,
  id: number,
  set: Updateable<TransfersTable>,
): Promise<void> {
  await db.updateTable('transfers').set(set).where('id', '=', id).execute();
}

/**
 * Approves by itself every PENDING withdrawal of `coin` of at most `maxAmount` (a decimal coin amount; DECISIONS
 * §18 WITHDRAW_AUTO_MAX_<COIN>) in one statement; answers their ids.
 */
export async function autoApprove(db: DbOrTx, coin: Coin, maxAmount: string): Promise<number[]> {
  const r = await sql<{ id: number }>`update transfers set status = 'APPROVED', approved_at = now()
      where type = 'WITHDRAW' and dest_type = 'EXTERNAL' and coin = ${coin} and status = 'PENDING'
        and amount <= ${maxAmount}::numeric
      returning id`.execute(db);
  return r.rows.map((x) => Number(x.id));
}

/** Up to `limit` APPROVED withdrawals of `coin` that are due (no back-off running) and have no live attempt. */
export async function dueApproved(db: DbOrTx, coin: Coin, limit: number): Promise<number[]> {
  const r = await sql<{ id: number }>`select t.id from transfers t
      where t.type = 'WITHDRAW' and t.dest_type = 'EXTERNAL' and t.coin = ${coin} and t.status = 'APPROVED'
        and (t.next_try_at is null or t.next_try_at <= now())
        and not exists (select 1 from withdrawal_attempts a where a.transfer_id = t.id
          and a.status in ('PREPARED', 'BROADCAST'))
      order by t.id limit ${limit}`.execute(db);
  return r.rows.map((x) => Number(x.id));
}

/** Records why the worker stopped on withdrawal `id` and leaves it alone for `retrySec`. */
export async function setWithdrawalError(
  db: DbOrTx,
  id: number,
  message: string,
  retrySec: number,
): Promise<void> {
  await sql`update transfers set last_error = ${message}, last_error_at = now(),
      next_try_at = now() + make_interval(secs => ${retrySec}) where id = ${id}`.execute(db);
}

/** The attempts of withdrawal `transferId`, newest first. */
export async function attemptsOf(db: DbOrTx, transferId: number): Promise<AttemptRow[]> {
  return db
    .selectFrom('withdrawal_attempts')
    .selectAll()
    .where('transfer_id', '=', transferId)
    .orderBy('seq', 'desc')
    .execute();
}

/** Inserts an attempt (PREPARED) with its reservation and intent. */
export async function insertAttempt(
  tx: Tx,
  a: {
    transferId: number;
    coin: Coin;
    seq: number;
    requestId: string;
    replacesId: number | null;
    reservation: Record<string, unknown>;
    intent: Record<string, unknown>;
  },
): Promise<AttemptRow> {
  return tx
    .insertInto('withdrawal_attempts')
    .values({
      transfer_id: a.transferId,
      coin: a.coin,
      seq: a.seq,
      request_id: a.requestId,
      replaces_id: a.replacesId,
      reservation: JSON.stringify(a.reservation),
      intent: JSON.stringify(a.intent),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deletes a PREPARED attempt (the signer refused it: nothing was signed). True when it was deleted. */
export async function deletePreparedAttempt(tx: Tx, id: number): Promise<boolean> {
  const r = await tx
    .deleteFrom('withdrawal_attempts')
    .where('id', '=', id)
    .where('status', '=', 'PREPARED')
    .executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/** The open attempts of `coin` in `status`, oldest first. */
export async function openAttempts(
  db: DbOrTx,
  coin: Coin,
  status: 'PREPARED' | 'BROADCAST',
  limit: number,
): Promise<AttemptRow[]> {
  return db
    .selectFrom('withdrawal_attempts')
    .selectAll()
    .where('coin', '=', coin)
    .where('status', '=', status)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** An attempt under its row lock. */
export async function lockAttempt(tx: Tx, id: number): Promise<AttemptRow | undefined> {
  return tx.selectFrom('withdrawal_attempts').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** Writes a change of an attempt. */
export async function updateAttempt(
  tx: Tx,
  id: number,
  set: Updateable<WithdrawalAttemptsTable>,
): Promise<void> {
  await tx.updateTable('withdrawal_attempts').set(set).where('id', '=', id).execute();
}

/**
 * The next nonce of sending address `address` of `coin`, taken under the row's lock in `tx`: the larger of the
 * stored one and `fromNode` (what the node counts; a first use, or transactions sent from elsewhere), then
 * the stored one moves past it. Concurrent callers wait on the lock and get distinct nonces.
 */
export async function takeNonce(tx: Tx, coin: Coin, address: string, fromNode: number): Promise<number> {
  await tx
    .insertInto('chain_nonces')
    .values({ coin, address, next_nonce: fromNode })
    .onConflict((oc) => oc.columns(['coin', 'address']).doNothing())
    .execute();
  const row = await tx
    .selectFrom('chain_nonces')
    .select('next_nonce')
    .where('coin', '=', coin)
    .where('address', '=', address)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const nonce = Math.max(Number(row.next_nonce), fromNode);
  await tx
    .updateTable('chain_nonces')
    .set({ next_nonce: nonce + 1, updated_at: new Date() })
    .where('coin', '=', coin)
    .where('address', '=', address)
    .execute();
  return nonce;
}

/**
 * Gives nonce `nonce` of `address` back when it is the last one taken (the signer refused its transaction, so
 * no transaction will ever use it); a later one taken meanwhile keeps it (the worker of a coin is one). True
 * when it was given back.
 */
export async function returnNonce(tx: Tx, coin: Coin, address: string, nonce: number): Promise<boolean> {
  const r = await tx
    .updateTable('chain_nonces')
    .set({ next_nonce: nonce, updated_at: new Date() })
    .where('coin', '=', coin)
    .where('address', '=', address)
    .where('next_nonce', '=', nonce + 1)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Takes or renews the payout lease of `coin` for `holder` (as the deposit watchers' lease): granted when free,
 * run out or already held by `holder`. True when `holder` has it.
 */
export async function acquirePayoutLease(
  db: DbOrTx,
  coin: Coin,
  holder: string,
  leaseMs: number,
): Promise<boolean> {
  const r = await sql<{ holder: string }>`insert into payout_workers (coin, holder, lease_until, last_run_at)
      values (${coin}, ${holder}, now() + make_interval(secs => ${leaseMs / 1000}), now())
      on conflict (coin) do update set holder = excluded.holder, lease_until = excluded.lease_until,
        last_run_at = now(), updated_at = now()
      where payout_workers.holder = excluded.holder or payout_workers.holder is null
        or payout_workers.lease_until is null or payout_workers.lease_until < now()
      returning holder`.execute(db);
  return r.rows.length === 1;
}

/** True while `holder` still holds the payout lease of `coin` (checked inside a paying transaction). */
export async function holdsPayoutLease(tx: Tx, coin: Coin, holder: string): Promise<boolean> {
  const r = await sql<{ holder: string }>`select holder from payout_workers
      where coin = ${coin} and holder = ${holder} and lease_until > now() for update`.execute(tx);
  return r.rows.length === 1;
}

/** Gives the payout lease up (a clean shutdown). */
export async function releasePayoutLease(db: DbOrTx, coin: Coin, holder: string): Promise<void> {
  await sql`update payout_workers set holder = null, lease_until = null, updated_at = now()
      where coin = ${coin} and holder = ${holder}`.execute(db);
}

/** Stores the worker's last error of `coin` (null: the last pass went through). */
export async function recordPayoutError(db: DbOrTx, coin: Coin, message: string | null): Promise<void> {
  await sql`update payout_workers set last_error = ${message},
      last_error_at = case when ${message}::text is null then last_error_at else now() end, updated_at = now()
      where coin = ${coin}`.execute(db);
}

/** The worker's last error per coin. */
export async function payoutErrors(db: DbOrTx): Promise<Map<Coin, string | null>> {
  const rows = await db.selectFrom('payout_workers').select(['coin', 'last_error']).execute();
  return new Map(rows.map((r) => [r.coin, r.last_error]));
}
