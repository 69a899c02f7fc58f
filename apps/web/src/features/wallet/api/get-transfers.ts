import type { TransferPage } from '@p2p/contract';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /transfer?walletId&cursor: one wallet's transfer history, newest first. */
export function getTransfers(walletId: number, cursor?: string) {
  return api.get<TransferPage>('/transfer', { query: { walletId, cursor } });
}

/** The key every wallet's history starts with (what a transfer makes stale). */
export const transfersKey = ['transfers'] as const;

export const transfersQueryOptions = (walletId: number | undefined) =>
  infiniteQueryOptions({
    queryKey: [...transfersKey, walletId],
    enabled: walletId !== undefined,
    queryFn: ({ pageParam }) => getTransfers(walletId ?? 0, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export function useTransfers(walletId: number | undefined) {
  return useInfiniteQuery(transfersQueryOptions(walletId));
}
