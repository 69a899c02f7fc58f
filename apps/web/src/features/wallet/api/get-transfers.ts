import type { TransferPage } from '@p2p/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /transfer?walletId&cursor: one wallet's transfer history, newest first. */
export function getTransfers(walletId: number, cursor?: string) {
  return api.get<TransferPage>('/transfer', { query: { walletId, cursor } });
}

export function useTransfers(walletId: number | undefined) {
  return useInfiniteQuery({
    queryKey: ['transfers', walletId],
    enabled: walletId !== undefined,
    queryFn: ({ pageParam }) => getTransfers(walletId ?? 0, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}
