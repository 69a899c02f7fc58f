import type { BlockedMember } from '@p2p/contract';
import type { DbOrTx } from '../../db/client.ts';

/**
 * GET /api/v1/blocks' rows: whom `blockerId` blocks, newest first, by their public nickname. Reads `members`
 * (identity's table) in the same statement: the list shows a name per row, and a call per row to the owner
 * would be a round trip per blocked member.
 */
export async function blockListRows(db: DbOrTx, blockerId: number): Promise<BlockedMember[]> {
  const rows = await db
    .selectFrom('member_blocks as b')
    .innerJoin('members as m', 'm.id', 'b.blocked_id')
    .select(['m.nickname', 'b.created_at'])
    .where('b.blocker_id', '=', blockerId)
    .orderBy('b.created_at', 'desc')
    .orderBy('b.blocked_id', 'desc')
    .execute();
  return rows.map((r) => ({ nickname: r.nickname, blockedAt: new Date(r.created_at).toISOString() }));
}
