import { sql } from 'kysely';
import type { DbOrTx } from '../../db/client.ts';

/**
 * The SQL of the identity module's session tables: `refresh_tokens` (one family per session, DECISIONS §6,
 * §13) and `reset_tickets` (single-use password reset, DECISIONS §13). Tokens and tickets are stored as their
 * sha256 only; the callers hash them. Each function takes the database or the caller's transaction.
 */

/** Inserts a refresh token (its sha256 `tokenHash`) of `familyId` for `memberId`, expiring `ttlSec` s from now. */
export async function insertRefreshTokenRow(
  db: DbOrTx,
  r: { memberId: number; familyId: string; tokenHash: string; ttlSec: number },
): Promise<void> {
  await db
    .insertInto('refresh_tokens')
    .values({
      member_id: r.memberId,
      family_id: r.familyId,
      token_hash: r.tokenHash,
      expires_at: sql<Date>`now() + make_interval(secs => ${r.ttlSec})`,
      rotated_at: null,
      revoked_at: null,
    })
    .execute();
}

/** The session (family id) of a refresh token by its sha256, or undefined. */
export async function refreshTokenFamily(db: DbOrTx, tokenHash: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('refresh_tokens')
    .select('family_id')
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row?.family_id;
}

/**
 * A refresh token by its sha256, locked (SELECT ... FOR UPDATE OF the token) for the caller's rotation, with
 * its member's status and whether it has expired; undefined when unknown. One statement on purpose: the
 * member's status is read on every refresh, under the same snapshot as the token.
 */
export async function lockRefreshToken(db: DbOrTx, tokenHash: string) {
  return db
    .selectFrom('refresh_tokens as t')
    .innerJoin('members as m', 'm.id', 't.member_id')
    .select([
      't.id',
      't.member_id',
      't.family_id',
      't.rotated_at',
      't.revoked_at',
      'm.status',
      sql<boolean>`t.expires_at <= now()`.as('expired'),
    ])
    .where('t.token_hash', '=', tokenHash)
    .forUpdate('t')
    .executeTakeFirst();
}

/** Marks refresh token `id` rotated now (its successor is inserted by the caller in the same transaction). */
export async function markRefreshTokenRotated(db: DbOrTx, id: number): Promise<void> {
  await db.updateTable('refresh_tokens').set({ rotated_at: sql<Date>`now()` }).where('id', '=', id).execute();
}

/** Revokes every not yet revoked token of one session (refresh-token family). */
export async function revokeFamilyRows(db: DbOrTx, familyId: string): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: sql<Date>`now()` })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes every not yet revoked token of `memberId`, except the family `keepFamilyId` when given. */
export async function revokeMemberRefreshTokens(
  db: DbOrTx,
  memberId: number,
  keepFamilyId?: string,
): Promise<void> {
  let q = db
    .updateTable('refresh_tokens')
    .set({ revoked_at: sql<Date>`now()` })
    .where('member_id', '=', memberId)
    .where('revoked_at', 'is', null);
  if (keepFamilyId) q = q.where('family_id', '<>', keepFamilyId);
  await q.execute();
}

/**
 * The sessions among `familyIds` that are still live: a token of the family neither revoked nor expired, and its
 * member not suspended (the guard's rule, http/auth.ts).
 */
export async function liveFamilyIds(db: DbOrTx, familyIds: readonly string[]): Promise<Set<string>> {
  const live = new Set<string>();
  // in slices: an instance's every open stream may be rechecked at once, and a statement takes 65535 parameters
  for (let i = 0; i < familyIds.length; i += 1000) {
    const slice = familyIds.slice(i, i + 1000);
    const rows = await sql<{ family_id: string }>`select distinct t.family_id from refresh_tokens t
        join members m on m.id = t.member_id
        where t.family_id in (${sql.join(slice.map((f) => sql`${f}::uuid`))})
          and t.revoked_at is null and t.expires_at > now() and m.status <> 'SUSPENDED'`.execute(db);
    for (const r of rows.rows) live.add(r.family_id);
  }
  return live;
}

/** Inserts a reset ticket (its sha256) of `memberId`, valid `ttlSec` s from now (DECISIONS §13). */
export async function insertResetTicket(
  db: DbOrTx,
  r: { memberId: number; ticketHash: string; ttlSec: number },
): Promise<void> {
  await db
    .insertInto('reset_tickets')
    .values({
      member_id: r.memberId,
      ticket_hash: r.ticketHash,
      expires_at: sql<Date>`now() + make_interval(secs => ${r.ttlSec})`,
      used_at: null,
    })
    .execute();
}

/**
 * Uses a reset ticket once: marks it used when it is unused and unexpired, in one statement (so two parallel
 * uses cannot both succeed). Returns its member id, or undefined (unknown, used or expired).
 */
export async function useResetTicket(db: DbOrTx, ticketHash: string): Promise<number | undefined> {
  const ticket = await db
    .updateTable('reset_tickets')
    .set({ used_at: sql<Date>`now()` })
    .where('ticket_hash', '=', ticketHash)
    .where('used_at', 'is', null)
    .where(sql<boolean>`expires_at > now()`)
    .returning('member_id')
    .executeTakeFirst();
  return ticket?.member_id;
}
