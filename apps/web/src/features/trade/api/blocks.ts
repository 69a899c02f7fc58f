import type { BlockList } from '@p2p/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { tradeListingsKey } from './get-trade-listings';

/** GET /api/v1/blocks (DECISIONS §19): whom the member blocks, newest first. */
export function getBlocks() {
  return api.get<BlockList>('/api/v1/blocks');
}

export function blocksQueryOptions() {
  return queryOptions({ queryKey: ['blocks'], queryFn: getBlocks });
}

export function useBlocks(enabled = true) {
  return useQuery({ ...blocksQueryOptions(), enabled });
}

/**
 * Blocks (POST /api/v1/blocks) or unblocks (DELETE /api/v1/blocks/{nickname}) a member by nickname; afterwards
 * the list and the trade list (which hides blocked sellers) are read again. Throws BLOCK_SELF, BLOCKS_LIMIT,
 * NICKNAME_NOT_FOUND, NOT_FOUND.
 */
export function useSetBlocked() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ nickname, blocked }: { nickname: string; blocked: boolean }) =>
      blocked
        ? api.post<BlockList>('/api/v1/blocks', { nickname })
        : api.request<BlockList>('DELETE', `/api/v1/blocks/${encodeURIComponent(nickname)}`),
    onSuccess: (list) => {
      queryClient.setQueryData(blocksQueryOptions().queryKey, list);
      void queryClient.invalidateQueries({ queryKey: tradeListingsKey });
    },
  });
}
