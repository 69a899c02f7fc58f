import {
  type OpsAuditEntry,
  type OpsMember,
  type OpsMemberDetail,
  type OpsSummary,
  type Page,
  TOTAL_COUNT_CAP,
} from '@p2p/contract';
import { type ExpressionBuilder, sql } from 'kysely';
import { cappedCount } from '../../db/capped-count.ts';
import type { Db } from '../../db/client.ts';
import { readKeptCounts } from '../../db/kept-counts.ts';
import type { DB } from '../../db/schema.ts';
import { AppError } from '../../errors/index.ts';
import { decodeIdCursor, encodeIdCursor } from '../../http/cursor.ts';
import { toPage } from '../../http/page.ts';
import { OPS_MEMBER_COLUMNS, type OpsMemberRow } from '../identity/index.ts';
import { listWallets } from '../wallets/index.ts';

/*
 * The operator console's read models (DECISIONS §8): the audit log, the member list and member page, the
 * summary counts. Reads only; the writes are in repo.ts and the owners' repos. The member list and page read
 * `members` (identity) with the columns identity's repo exports, and the member page's and the summary's counts
 * read `sell_listings` (listings), `buy_orders` (orders) and `transfers` (wallets) in one statement each: a
 * count function per owner would turn one round trip into three or four on every console page load, for
 * numbers that are only shown. This is the one place outside those modules that names those tables for ops.
 */

const MEMBER_COLUMNS = OPS_MEMBER_COLUMNS;
type MemberRow = OpsMemberRow;

/** A member row as the console shows it (OpsMember). */
export function toOpsMember(r: MemberRow): OpsMember {
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
 * The member search's text (038_member_search_text.sql keeps it in a column, indexed with pg_trgm): login id,
 * nickname and name joined by spaces, lowercased. The phone is searched apart, by its end (PHONE_REVERSED).
 */
const SEARCH_TEXT = sql<string>`search_text`;

/** The phone backwards (027_growth_flat.sql indexes it): "ends with" becomes an index range. */
const PHONE_REVERSED = sql<string>`reverse(phone_e164)`;

/**
 * The search filter of the member list: loginId, nickname or name contain `q` (case-insensitive), or the phone
 * ends with its digits. A locally typed Korean/Japanese number ("010-1234-5678") also matches its E.164 form
 * (+821012345678) because the leading 0 is tried without; so do the full E.164 number and its last digits.
 * The phone is matched by its end, not anywhere (issue 27): digits are too few distinct trigrams for a
 * trigram index (9-17 ms at 200,000 members), while the end is one range of an index on the reversed phone.
 */
function searchFilter(q: string) {
  const text = likeContains(q);
  const digits = q.replace(/[\s\-+().]/g, '');
  const ends = /^\d{3,15}$/.test(digits)
    ? [...new Set([digits, digits.replace(/^0/, '')])]
        .filter((d) => d.length >= 3)
        .map((d) => `${[...d].reverse().join('')}%`)
    : [];
  // Literals, not parameters: as a named prepared statement (db/prepared.ts) the search got a generic plan for
  // "like $1" after five runs, which walked every member by id (940 ms at 200,000); with the pattern in the
  // text each search is planned for its own pattern (a digits-only or escaped string, see likeContains).
  return (eb: ExpressionBuilder<DB, 'members'>) =>
    eb.or([
      // lower() of a literal is folded once when planned; the column holds the lowercased text (038)
      eb(SEARCH_TEXT, 'like', sql<string>`lower(${sql.lit(text)})`),
      ...ends.map((p) => eb(PHONE_REVERSED, 'like', sql.lit(p))),
    ]);
}

/**
 * Where a member search's total stops being counted (issue 27): each match is a heap row rechecked against the
 * pattern, so counting a common name ("park", one member in ten) to TOTAL_COUNT_CAP cost 3-7 ms at 200,000
 * members against 0.3 ms for the page; to 100 it costs under 1 ms. The console shows "100+" (totalCapped).
 */
export const SEARCH_COUNT_CAP = 100;

/**
 * GET /ops/api/v1/members (DECISIONS §8, §10): members newest first, optionally filtered by `q`, in pages
 * of `size` with an opaque keyset cursor. Throws VALIDATION_FAILED on a forged cursor.
 */
export async function listMembers(
  db: Db,
  o: { q?: string; size: number; cursor?: string },
): Promise<Page<OpsMember>> {
  const filter = o.q ? searchFilter(o.q) : null;
  let page = db.selectFrom('members').select(MEMBER_COLUMNS);
  let count = db.selectFrom('members');
  if (filter) {
    page = page.where(filter);
    count = count.where(filter);
  }
  if (o.cursor) page = page.where('id', '<', decodeIdCursor('members', o.cursor));
  const rows = await page
    .orderBy('id', 'desc')
    .limit(sql.lit(o.size + 1)) // a literal: see cappedCount
    .execute();
  // counted up to the cap (issue 27): 200,000 members are "1,000+", every "kim" "100+"
  const total = await cappedCount(db, count, filter ? SEARCH_COUNT_CAP : TOTAL_COUNT_CAP);
  return toPage(rows, o.size, total, toOpsMember, (r) => encodeIdCursor('members', r.id));
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

function asRecord(v: unknown): Record<string, unknown> | null {
  if (typeof v === 'string') {
    try {
      return asRecord(JSON.parse(v));
    } catch {
      return null;
    }
  }
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/**
 * GET /ops/api/v1/audit-log (DECISIONS §8): operator actions newest first (who, what, on which target,
 * why, when), in pages of `size` with an opaque keyset cursor on the id; optionally only those on one
 * target type / id. Throws VALIDATION_FAILED on a forged cursor.
 */
export async function listAuditLog(
  db: Db,
  o: { size: number; cursor?: string; targetType?: string; targetId?: string },
): Promise<Page<OpsAuditEntry>> {
  let page = db
    .selectFrom('audit_log as a')
    .innerJoin('members as m', 'm.id', 'a.operator_id')
    .select([
      'a.id',
      'a.operator_id',
      'm.login_id',
      'a.action',
      'a.target_type',
      'a.target_id',
      'a.reason',
      'a.data',
      'a.created_at',
    ]);
  let count = db.selectFrom('audit_log');
  if (o.targetType) {
    page = page.where('a.target_type', '=', o.targetType);
    count = count.where('target_type', '=', o.targetType);
  }
  if (o.targetId) {
    page = page.where('a.target_id', '=', o.targetId);
    count = count.where('target_id', '=', o.targetId);
  }
  if (o.cursor) page = page.where('a.id', '<', decodeIdCursor('audit-log', o.cursor));
  const rows = await page
    .orderBy('a.id', 'desc')
    .limit(o.size + 1)
    .execute();
  const total = await cappedCount(db, count);
  return toPage(
    rows,
    o.size,
    total,
    (r): OpsAuditEntry => ({
      id: r.id,
      operatorId: r.operator_id,
      operatorLoginId: r.login_id,
      action: r.action,
      targetType: r.target_type,
      targetId: r.target_id,
      reason: r.reason,
      data: asRecord(r.data),
      createdAt: new Date(r.created_at).toISOString(),
    }),
    (r) => encodeIdCursor('audit-log', r.id),
  );
}

/**
 * GET /ops/api/v1/summary: what waits for an operator on the console home (DECISIONS §8): listings
 * pending review, external withdrawals pending, live buy orders (REQUESTED or PAID), disputes waiting for a
 * resolution (DECISIONS §11), and member counts. Exact, and read from the kept counts (037_kept_counts.sql,
 * issue 27): a handful of rows however long the queues, where counting them read every live row.
 */
export async function opsSummary(db: Db): Promise<OpsSummary> {
  return readKeptCounts(db, SUMMARY_KEYS);
}

/** The summary's kept counts (037_kept_counts.sql): the keys are the answer's fields. */
export const SUMMARY_KEYS = [
  'pendingListings',
  'pendingWithdrawals',
  'requestedOrders',
  'disputedOrders',
  'members',
  'suspendedMembers',
] as const satisfies readonly (keyof OpsSummary)[];
