import { sql } from 'kysely';
import type { DbOrTx, Tx } from '../../db/client.ts';

/**
 * The kyc module's SQL (021_kyc.sql): identity requests, verified identities, ID documents. Nothing outside
 * the module names these tables; the level on the member row is written through identity's raiseKycLevel.
 */

/** The member's verified identity row, or undefined below level 1. */
export async function verifiedIdentity(db: DbOrTx, memberId: number) {
  return db
    .selectFrom('kyc_identities')
    .select(['verified_name', sql<string>`to_char(birth_date, 'YYYY-MM-DD')`.as('birth_date'), 'verified_at'])
    .where('member_id', '=', memberId)
    .executeTakeFirst();
}

/** Stores a new identity request; returns its id. */
export async function insertIdentityRequest(
  db: DbOrTx,
  r: {
    memberId: number;
    provider: string;
    providerRef: string;
    name: string;
    birthDate: string;
    ttlSec: number;
  },
): Promise<number> {
  const row = await db
    .insertInto('kyc_identity_requests')
    .values({
      member_id: r.memberId,
      provider: r.provider,
      provider_ref: r.providerRef,
      name: r.name,
      birth_date: r.birthDate,
      expires_at: sql<Date>`now() + make_interval(secs => ${r.ttlSec})`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The member's newest identity request with whether it has expired (the database's clock), or undefined. */
export async function newestIdentityRequest(db: DbOrTx, memberId: number) {
  return db
    .selectFrom('kyc_identity_requests')
    .select([
      'id',
      'provider',
      'provider_ref',
      'name',
      sql<string>`to_char(birth_date, 'YYYY-MM-DD')`.as('birth_date'),
      'tries',
      'verified_at',
      sql<boolean>`expires_at <= now()`.as('expired'),
    ])
    .where('member_id', '=', memberId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Counts one try of a request, atomically and only while it has tries left, is unverified and unexpired, so
 * parallel guesses cannot pass `maxTries`. Returns the tries now counted, or undefined when none was left.
 */
export async function countIdentityTry(db: DbOrTx, requestId: number, maxTries: number) {
  const r = await db
    .updateTable('kyc_identity_requests')
    .set({ tries: sql<number>`tries + 1` })
    .where('id', '=', requestId)
    .where('tries', '<', maxTries)
    .where('verified_at', 'is', null)
    .where(sql<boolean>`expires_at > now()`)
    .returning('tries')
    .executeTakeFirst();
  return r?.tries;
}

/** Marks a request verified (once: only an unverified, unexpired one); true when this call did. */
export async function markIdentityVerified(tx: Tx, requestId: number): Promise<boolean> {
  const r = await tx
    .updateTable('kyc_identity_requests')
    .set({ verified_at: sql<Date>`now()` })
    .where('id', '=', requestId)
    .where('verified_at', 'is', null)
    .where(sql<boolean>`expires_at > now()`)
    .returning('id')
    .executeTakeFirst();
  return r !== undefined;
}

/** Records the verified identity (level 1); a member verified before keeps the first record. */
export async function insertVerifiedIdentity(
  tx: Tx,
  v: { memberId: number; name: string; birthDate: string; provider: string; requestId: number },
): Promise<void> {
  await tx
    .insertInto('kyc_identities')
    .values({
      member_id: v.memberId,
      verified_name: v.name,
      birth_date: v.birthDate,
      provider: v.provider,
      request_id: v.requestId,
    })
    .onConflict((oc) => oc.column('member_id').doNothing())
    .execute();
}

/** Stores a sealed ID document as PENDING; the partial unique index refuses a second pending one. */
export async function insertDocument(
  db: DbOrTx,
  d: {
    memberId: number;
    contentType: 'image/jpeg' | 'image/png';
    width: number;
    height: number;
    byteSize: number;
    keyId: string;
    sealed: Buffer;
  },
) {
  return db
    .insertInto('kyc_documents')
    .values({
      member_id: d.memberId,
      content_type: d.contentType,
      width: d.width,
      height: d.height,
      byte_size: d.byteSize,
      key_id: d.keyId,
      sealed: d.sealed,
    })
    .returning(['id', 'status', 'reason', 'created_at', 'reviewed_at'])
    .executeTakeFirstOrThrow();
}

/** The member's newest ID document (without its bytes), or undefined. */
export async function newestDocument(db: DbOrTx, memberId: number) {
  return db
    .selectFrom('kyc_documents')
    .select(['id', 'status', 'reason', 'created_at', 'reviewed_at'])
    .where('member_id', '=', memberId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Decides a PENDING document (the operator's review): one statement whose WHERE names the status, so of two
 * parallel decisions exactly one matches. Returns the member id, or undefined when it was not PENDING (or
 * does not exist).
 */
export async function decideDocument(
  tx: Tx,
  d: { id: number; status: 'APPROVED' | 'REJECTED'; reason: string | null; operatorId: number },
) {
  return tx
    .updateTable('kyc_documents')
    .set({ status: d.status, reason: d.reason, reviewed_by: d.operatorId, reviewed_at: sql<Date>`now()` })
    .where('id', '=', d.id)
    .where('status', '=', 'PENDING')
    .returning('member_id')
    .executeTakeFirst();
}

/** True when the document exists (a refused decision tells 404 from 409). */
export async function documentExists(db: DbOrTx, id: number): Promise<boolean> {
  return (
    (await db.selectFrom('kyc_documents').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
  );
}

/** The sealed bytes of a document with its owner and type, or undefined. */
export async function sealedDocument(db: DbOrTx, id: number) {
  return db
    .selectFrom('kyc_documents')
    .select(['member_id', 'content_type', 'key_id', 'sealed'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * The retention purge of a closed member (DECISIONS §19, RETENTION_YEARS after closing): their ID documents
 * (the sealed images), verified identity and identity requests deleted. The level on the member row stays,
 * a number that names no one.
 */
export async function purgeKycOf(tx: Tx, memberId: number): Promise<void> {
  await tx.deleteFrom('kyc_documents').where('member_id', '=', memberId).execute();
  await tx.deleteFrom('kyc_identities').where('member_id', '=', memberId).execute();
  await tx.deleteFrom('kyc_identity_requests').where('member_id', '=', memberId).execute();
}
