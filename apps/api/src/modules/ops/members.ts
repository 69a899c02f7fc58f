import type { OpsMember, OpsMemberDetail } from '@p2p/contract';
import { type ExpressionBuilder, sql } from 'kysely';
import type { Db, Tx } from '../../db/client.ts';
import type { DB } from '../../db/schema.ts';
import { inTx } from '../../db/tx.ts';
import { decodeIdCursor, encodeIdCursor } from '../../http/cursor.ts';
import { AppError } from '../../http/errors.ts';
import { toPage } from '../../http/page.ts';
import { lockMemberRow, OPS_MEMBER_COLUMNS, type OpsMemberRow, setMemberStatus } from '../identity/repo.ts';
import { revokeAllRefreshTokens } from '../identity/session.ts';
import { listWallets } from '../wallets/service.ts';
import { audit } from './audit.ts';

const MEMBER_COLUMNS = OPS_MEMBER_COLUMNS;
type MemberRow = OpsMemberRow;

function toOpsMember(r: MemberRow): OpsMember {
  return {
    id: r.id,
    loginId: r.login_id,
    nickname: r.nickname,
    name: r.name,
    countryCode: r.country_code as OpsMember['countryCode'],
    phoneE164: r.phone_e164,
    role: r.role,
    status: r.status,
    suspendedReason: r.suspended_reason,
    createdAt: new Date(r.created_at).toISOString(),
  };
}

/** Escapes LIKE wildcards so a search for "a_b" matches the text "a_b" only. */
function likeContains(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The search filter of the member list: loginId, nickname or name contain `q` (case-insensitive), or the
 * phone contains its digits. A locally typed Korean/Japanese number ("010-1234-5678") also matches its
 * E.164 form (+821012345678) because the leading 0 is tried without.
 */
function searchFilter(q: string) {
  const text = likeContains(q);
  const digits = q.replace(/[\s\-+().]/g, '');
  const phones = /^\d{3,15}$/.test(digits)
    ? [...new Set([digits, digits.replace(/^0/, '')])].filter((d) => d.length >= 3).map(likeContains)
    : [];
  return (eb: ExpressionBuilder<DB, 'members'>) =>
    eb.or([
      eb('login_id', 'ilike', text),
      eb('nickname', 'ilike', text),
      eb('name', 'ilike', text),
      ...phones.map((p) => eb('phone_e164', 'like', p)),
    ]);
}

/**
 * GET /ops/api/v1/members (DECISIONS §8, §10): members newest first, optionally filtered by `q`, in pages
 * of `size` with an opaque keyset cursor. Throws VALIDATION_FAILED on a forged cursor.
 */
export async function listMembers(
  db: Db,
  o: { q?: string; size: number; cursor?: string },
): Promise<{ list: OpsMember[]; nextCursor: string | null; totalCount: number }> {
  const filter = o.q ? searchFilter(o.q) : null;
  let page = db.selectFrom('members').select(MEMBER_COLUMNS);
  let count = db.selectFrom('members').select((eb) => eb.fn.countAll<number>().as('n'));
  if (filter) {
    page = page.where(filter);
    count = count.where(filter);
  }
  if (o.cursor) page = page.where('id', '<', decodeIdCursor('members', o.cursor));
  const rows = await page
    .orderBy('id', 'desc')
    .limit(o.size + 1)
    .execute();
  const total = await count.executeTakeFirstOrThrow();
  return toPage(rows, o.size, Number(total.n), toOpsMember, (r) => encodeIdCursor('members', r.id));
}

/**
 * GET /ops/api/v1/members/{id} (DECISIONS §8 "members (view)"): the member with bank details, wallets and
 * balances (available and escrow, decimal strings) and counts of live trade. Throws NOT_FOUND_MEMBER_ID.
 */
export async function memberDetail(db: Db, memberId: number): Promise<OpsMemberDetail> {
  const row = await db
    .selectFrom('members')
    .select([...MEMBER_COLUMNS, 'bank_name', 'account_no'])
    .where('id', '=', memberId)
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND_MEMBER_ID');
  // Read-only counts over the listings' and orders' tables in one statement for the console's member page.
  const counts = await sql<{ listings: number; asBuyer: number; asSeller: number }>`
    select
      (select count(*) from sell_listings
        where seller_id = ${memberId} and status in ('PENDING_REVIEW', 'OPEN', 'PAUSED'))::int as "listings",
      (select count(*) from buy_orders
        where buyer_id = ${memberId} and status in ('REQUESTED', 'PAID', 'DISPUTED'))::int as "asBuyer",
      (select count(*) from buy_orders
        where seller_id = ${memberId} and status in ('REQUESTED', 'PAID', 'DISPUTED'))::int as "asSeller"`.execute(
    db,
  );
  const c = counts.rows[0] ?? { listings: 0, asBuyer: 0, asSeller: 0 };
  return {
    ...toOpsMember(row),
    bankName: row.bank_name,
    accountNo: row.account_no,
    wallets: await listWallets(db, memberId),
    activeListings: c.listings,
    requestedOrdersAsBuyer: c.asBuyer,
    requestedOrdersAsSeller: c.asSeller,
  };
}

async function lockMember(tx: Tx, memberId: number): Promise<MemberRow> {
  const row = await lockMemberRow(tx, memberId);
  if (!row) throw new AppError('NOT_FOUND_MEMBER_ID');
  return row;
}

/**
 * Suspends a member (DECISIONS §8): status SUSPENDED with the reason, every live refresh token revoked
 * (so no new access token can be minted; the guards refuse the current one at once), and an audit record,
 * all in one transaction. Throws NOT_FOUND_MEMBER_ID, FORBIDDEN {rule: SELF_SUSPEND} when the operator
 * names themself, INVALID_STATE when already suspended.
 */
export async function suspendMember(
  db: Db,
  operatorId: number,
  memberId: number,
  reason: string,
): Promise<OpsMember> {
  if (operatorId === memberId) throw new AppError('FORBIDDEN', { rule: 'SELF_SUSPEND' });
  return inTx(db, async (tx) => {
    const member = await lockMember(tx, memberId);
    if (member.status === 'SUSPENDED') throw new AppError('INVALID_STATE', { status: member.status });
    const updated = await setMemberStatus(tx, memberId, 'SUSPENDED', reason);
    await revokeAllRefreshTokens(tx, memberId);
    await audit(tx, {
      operatorId,
      action: 'member.suspend',
      targetType: 'member',
      targetId: memberId,
      reason,
    });
    return toOpsMember(updated);
  });
}

/**
 * Lifts a suspension (DECISIONS §8) with an audit record in the same transaction. The member signs in
 * again (their refresh tokens stay revoked). Throws NOT_FOUND_MEMBER_ID, INVALID_STATE when not suspended.
 */
export async function unsuspendMember(
  db: Db,
  operatorId: number,
  memberId: number,
  reason: string | undefined,
): Promise<OpsMember> {
  return inTx(db, async (tx) => {
    const member = await lockMember(tx, memberId);
    if (member.status !== 'SUSPENDED') throw new AppError('INVALID_STATE', { status: member.status });
    const updated = await setMemberStatus(tx, memberId, 'ACTIVE', null);
    await audit(tx, {
      operatorId,
      action: 'member.unsuspend',
      targetType: 'member',
      targetId: memberId,
      reason: reason ?? null,
      data: { previousReason: member.suspended_reason },
    });
    return toOpsMember(updated);
  });
}
