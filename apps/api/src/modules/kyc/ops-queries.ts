import type { KycDocumentStatus, OpsKycDocument } from '@p2p/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';

/** How many documents the review queue shows at once, oldest first. */
export const KYC_QUEUE_SIZE = 100;

/**
 * The console's review queue (DECISIONS §19): documents of `status` (all when absent), oldest first, with the
 * member and their verified identity. Reads `members` beside the kyc tables on purpose: the queue shows who
 * uploaded, and one statement serves the page.
 */
export async function kycQueue(db: Db, status: KycDocumentStatus | undefined) {
  let q = db
    .selectFrom('kyc_documents as d')
    .innerJoin('members as m', 'm.id', 'd.member_id')
    .leftJoin('kyc_identities as i', 'i.member_id', 'd.member_id')
    .select([
      'd.id',
      'd.member_id',
      'm.login_id',
      'm.nickname',
      'm.name',
      'm.kyc_level',
      'i.verified_name',
      sql<string | null>`to_char(i.birth_date, 'YYYY-MM-DD')`.as('birth_date'),
      'd.status',
      'd.content_type',
      'd.width',
      'd.height',
      'd.reason',
      'd.created_at',
      'd.reviewed_at',
    ]);
  let count = db.selectFrom('kyc_documents').select(sql<number>`count(*)::int`.as('n'));
  if (status) {
    q = q.where('d.status', '=', status);
    count = count.where('status', '=', status);
  }
  const [rows, total] = await Promise.all([
    q.orderBy('d.id', 'asc').limit(KYC_QUEUE_SIZE).execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  const list: OpsKycDocument[] = rows.map((r) => ({
    id: r.id,
    memberId: r.member_id,
    loginId: r.login_id,
    nickname: r.nickname,
    name: r.name,
    verifiedName: r.verified_name,
    birthDate: r.birth_date,
    kycLevel: r.kyc_level,
    status: r.status,
    contentType: r.content_type,
    width: r.width,
    height: r.height,
    reason: r.reason,
    createdAt: r.created_at.toISOString(),
    reviewedAt: r.reviewed_at ? r.reviewed_at.toISOString() : null,
  }));
  return { list, nextCursor: null, totalCount: total.n };
}
