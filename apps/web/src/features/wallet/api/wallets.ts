import type { Coin, Transfer, TransferRequestBody, Wallet } from '@p2p/contract';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const walletsQueryKey = ['wallets'] as const;

/** GET /api/v1/wallets: the member's wallets; `balance` is available, `escrowBalance` held in listings. */
export function useWallets() {
  return useQuery({ queryKey: walletsQueryKey, queryFn: () => api.get<Wallet[]>('/api/v1/wallets') });
}

/** POST /api/v1/wallets/create: one wallet per coin (409 WALLET_EXISTS). Refreshes the wallet list. */
export function useCreateWallet() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (coinCode: Coin) => api.post<Wallet>('/api/v1/wallets/create', { coinCode }),
    onSuccess: () => qc.invalidateQueries({ queryKey: walletsQueryKey }),
  });
}

interface TransferPage {
  list: Transfer[];
  nextCursor: string | null;
  totalCount: number;
}

/** GET /transfer?walletId&cursor: one wallet's transfer history, newest first. */
export function useTransfers(walletId: number | undefined) {
  return useInfiniteQuery({
    queryKey: ['transfers', walletId],
    enabled: walletId !== undefined,
    queryFn: ({ pageParam }) =>
      api.get<TransferPage>('/transfer', { query: { walletId, cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** POST /transfer/request: INTERNAL (another member's wallet, instant) or EXTERNAL (pending withdrawal). */
export function useRequestTransfer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TransferRequestBody) => api.post<Transfer>('/transfer/request', body),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: walletsQueryKey });
      void qc.invalidateQueries({ queryKey: ['transfers'] });
    },
  });
}
