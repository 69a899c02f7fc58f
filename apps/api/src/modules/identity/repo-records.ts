import type { LoginResult } from '@p2p/contract';
import { sql } from 'kysely';
import type { DbOrTx, Tx } from '../../db/client.ts';

/*
 * The identity module's records (DECISIONS §19 "Records"): the login history (access log) and the member row's
 * side of closing a membership and of the retention purge. The records module calls these through index.ts.
 */

/** The user agent as kept: at most this many characters (parsed when read). */
const UA_MAX = 512;

/** Records one sign-in attempt of a known member. */
export async function recordLoginAttempt(
  db: DbOrTx,
  a: { memberId: number; ip: string; userAgent: string | undefined; result: LoginResult },
): Promise<void> {
  await db
    .insertInto('login_attempts')
    .values({
      member_id: a.memberId,
      ip: a.ip,
      user_agent: a.userAgent?.slice(0, UA_MAX) ?? null,
      result: a.result,
    })
    .execute();
}

/**
 * Records a LOCKED attempt (the id+address budget refused it) for the member with login id `loginIdLower`, if
 * any, at most once a minute per member and address: a locked-out guesser keeps knocking, and each knock must
 * not become a row. One statement.
 */
export async function recordLockedAttempt(
  db: DbOrTx,
  loginIdLower: string,
  ip: string,
  userAgent: string | undefined,
): Promise<void> {
  await sql`insert into login_attempts (member_id, ip, user_agent, result)
      select m.id, ${ip}, ${userAgent?.slice(0, UA_MAX) ?? null}, 'LOCKED' from members m
      where lower(m.login_id) = ${loginIdLower}
        and not exists (select 1 from login_attempts a where a.member_id = m.id and a.ip = ${ip}
          and a.result = 'LOCKED' and a.at > now() - interval '1 minute')`.execute(db);
}

/** A member's login attempts of the last `days` days, newest first, at most `max`. */
export async function loginAttemptRows(db: DbOrTx, memberId: number, days: number, max: number) {
  return db
    .selectFrom('login_attempts')
    .select(['at', 'ip', 'user_agent', 'result'])
    .where('member_id', '=', memberId)
    .where('at', '>', sql<Date>`now() - make_interval(days => ${days})`)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(max)
    .execute();
}

/**
 * Deletes up to `batch` login attempts older than `days` days (access logs are kept 90 days); returns how many.
 * `asOf` stands for now (tests move time with it).
 */
export async function pruneLoginAttempts(
  db: DbOrTx,
  days: number,
  batch: number,
  asOf: Date,
): Promise<number> {
  // id = any(array(...)): the batch's ids first, then one primary key probe each (issue 27); `id in (select ...)`
  // planned a hash join over the whole table.
  const r = await sql`delete from login_attempts where id = any(array(
      select id from login_attempts where at < ${asOf}::timestamptz - make_interval(days => ${days})
      order by at limit ${batch}))`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

/**
 * Deletes up to `batch` SMS codes sent more than `days` days before `asOf` that no order names as its phone check
 * (issue 27): signup, reset and phone-change codes, and codes never verified. A verified 'member' code may be an
 * order's purchase check (buy_orders.purchase_check_id) and stays with it. Walks sms_codes_prunable_idx, which
 * holds only the deletable ones, so a run never reads the kept ones. Returns how many.
 */
export async function pruneSmsCodes(db: DbOrTx, days: number, batch: number, asOf: Date): Promise<number> {
  const r = await sql`delete from sms_codes where id = any(array(
      select id from sms_codes
      where (purpose <> 'member' or verified_at is null)
        and created_at < ${asOf}::timestamptz - make_interval(days => ${days})
      order by created_at limit ${batch}))`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

/**
 * Deletes up to `batch` refresh tokens that expired more than `days` days before `asOf` (issue 27): a token past
 * its end is refused anyway, whether rotated, revoked or not. Returns how many.
 */
export async function pruneRefreshTokens(
  db: DbOrTx,
  days: number,
  batch: number,
  asOf: Date,
): Promise<number> {
  const r = await sql`delete from refresh_tokens where id = any(array(
      select id from refresh_tokens where expires_at < ${asOf}::timestamptz - make_interval(days => ${days})
      order by expires_at limit ${batch}))`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

/** The member's row for closing, under SELECT ... FOR UPDATE (a purchase's FOR NO KEY UPDATE waits on it). */
export async function lockMemberForClose(tx: Tx, memberId: number) {
  return tx
    .selectFrom('members')
    .select(['id', 'role', 'status', 'password_hash'])
    .where('id', '=', memberId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/** Marks a locked member CLOSED now; returns closed_at. */
export async function markMemberClosed(tx: Tx, memberId: number): Promise<Date> {
  const r = await tx
    .updateTable('members')
    .set({ status: 'CLOSED', closed_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('id', '=', memberId)
    .returning('closed_at')
    .executeTakeFirstOrThrow();
  return r.closed_at as Date;
}

/**
 * Ids of closed memberships whose retention ended (closed `years` years or more before `asOf`) and that are
 * not purged yet, oldest first, at most `batch`.
 */
export async function closedMembersDue(
  db: DbOrTx,
  asOf: Date,
  years: number,
  batch: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('members')
    .select('id')
    .where('status', '=', 'CLOSED')
    .where('purged_at', 'is', null)
    .where('closed_at', '<=', sql<Date>`${asOf}::timestamptz - make_interval(years => ${years})`)
    .orderBy('closed_at')
    .orderBy('id')
    .limit(batch)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * The identity side of purging one closed member (DECISIONS §19): their login attempts, sessions and reset
 * tickets are deleted, their SMS codes lose phone and address; the row itself stays (ledger accounts, orders and transfers reference it, and the
 * ledger is never deleted) with every personal field replaced: login id and nickname `purged-<id>` (free
 * again for nobody: the prefix is not a valid id), name and phone emptied, bank details cleared, the password
 * hash `passwordHash` (of a random secret nobody holds). Stamps purged_at. Idempotent: a purged row is skipped.
 */
export async function purgeMemberIdentity(tx: Tx, memberId: number, passwordHash: string): Promise<boolean> {
  const done = await tx
    .updateTable('members')
    .set({
      login_id: `purged-${memberId}`,
      nickname: `purged-${memberId}`,
      name: '',
      phone_e164: '',
      bank_name: null,
      account_no: null,
      suspended_reason: null,
      password_hash: passwordHash,
      purged_at: sql<Date>`now()`,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', memberId)
    .where('status', '=', 'CLOSED')
    .where('purged_at', 'is', null)
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) === 0) return false;
  await tx.deleteFrom('login_attempts').where('member_id', '=', memberId).execute();
  await tx.deleteFrom('refresh_tokens').where('member_id', '=', memberId).execute();
  await tx.deleteFrom('reset_tickets').where('member_id', '=', memberId).execute();
  // A used purchase check is referenced by its order (buy_orders.purchase_check_id): emptied, not deleted.
  await tx
    .updateTable('sms_codes')
    .set({ phone_e164: '', ip: null })
    .where('member_id', '=', memberId)
    .execute();
  return true;
}

/**
 * The member with `nickname` (case-insensitive, like the unique index), or undefined: id and the nickname as
 * stored. Purged rows are not found (their nickname is no one's).
 */
export async function memberByNickname(db: DbOrTx, nickname: string) {
  return db
    .selectFrom('members')
    .select(['id', 'nickname'])
    .where(sql<string>`lower(nickname)`, '=', nickname.toLowerCase())
    .where('purged_at', 'is', null)
    .executeTakeFirst();
}
