import type { Wallet } from '@p2p/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const walletsQueryKey = ['wallets'] as const;

/** GET /api/v1/wallets: the member's wallets; `balance` is available, `escrowBalance` held in listings. */
export function getWallets() {
  return api.get<Wallet[]>('/api/v1/wallets');
}

export function useWallets() {
  return useQuery({ queryKey: walletsQueryKey, queryFn: getWallets });
}
