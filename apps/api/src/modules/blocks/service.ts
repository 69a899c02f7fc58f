import { type BlockList, MAX_BLOCKS } from '@p2p/contract';
import type { Db, DbOrTx } from '../../db/client.ts';
import { inTx } from '../../db/tx.ts';
import { AppError } from '../../errors/index.ts';
import { memberByNickname } from '../identity/index.ts';
import { blockListRows } from './queries.ts';
import { countBlocks, deleteBlock, eitherBlocks, insertBlock, lockBlockList } from './repo.ts';

/** GET /api/v1/blocks (DECISIONS §19): whom the member blocks, newest first, and the cap. */
export async function blockList(db: DbOrTx, blockerId: number): Promise<BlockList> {
  return { items: await blockListRows(db, blockerId), max: MAX_BLOCKS };
}

/**
 * POST /api/v1/blocks {nickname} (DECISIONS §19): `blockerId` blocks the member with that public nickname; the
 * blocked member's listings leave the blocker's trade list and neither may buy from the other. Blocking again
 * changes nothing. Throws 404 NICKNAME_NOT_FOUND (no such nickname: what POST /members/check-nickname tells
 * anyone; the caller spends the lookup budget first), 422 BLOCK_SELF, 422 BLOCKS_LIMIT {max} at MAX_BLOCKS
 * (decided under the list's lock, so parallel blocks cannot overfill it). Answers the list.
 */
export async function blockMember(db: Db, blockerId: number, nickname: string): Promise<BlockList> {
  const target = await memberByNickname(db, nickname);
  if (!target) throw new AppError('NICKNAME_NOT_FOUND');
  if (target.id === blockerId) throw new AppError('BLOCK_SELF');
  await inTx(db, async (tx) => {
    await lockBlockList(tx, blockerId);
    if ((await countBlocks(tx, blockerId)) >= MAX_BLOCKS) {
      // Blocking someone already on a full list is no new entry: answered as done.
      if (await insertBlock(tx, blockerId, target.id))
        throw new AppError('BLOCKS_LIMIT', { max: MAX_BLOCKS });
      return;
    }
    await insertBlock(tx, blockerId, target.id);
  });
  return blockList(db, blockerId);
}

/**
 * DELETE /api/v1/blocks/{nickname}: lifts the member's block of that nickname. Throws 404 NOT_FOUND when the
 * member does not block it (whether the nickname exists or not: the caller's own list is all it tells).
 * Answers the list.
 */
export async function unblockMember(db: Db, blockerId: number, nickname: string): Promise<BlockList> {
  const target = await memberByNickname(db, nickname);
  if (!target || !(await deleteBlock(db, blockerId, target.id))) throw new AppError('NOT_FOUND');
  return blockList(db, blockerId);
}

/**
 * The purchase's check (DECISIONS §19), inside its transaction after the buyer's row lock: 422 BLOCKED when the
 * seller blocks the buyer or the buyer blocks the seller. A block committed before this read refuses the order;
 * one committed after it came after the order (the order stays, as one placed a moment earlier would).
 */
export async function assertNotBlocked(tx: DbOrTx, buyerId: number, sellerId: number): Promise<void> {
  if (await eitherBlocks(tx, buyerId, sellerId)) throw new AppError('BLOCKED');
}
