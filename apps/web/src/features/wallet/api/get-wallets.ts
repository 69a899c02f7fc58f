import type { Wallet } from '@p2p/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /api/v1/wallets: the member's wallets; `balance` is available, `escrowBalance` held in listings. */
export function getWallets() {
  return api.get<Wallet[]>('/api/v1/wallets');
}

export const walletsQueryOptions = () => queryOptions({ queryKey: ['wallets'], queryFn: getWallets });

export function useWallets() {
  return useQuery(walletsQueryOptions());
}
