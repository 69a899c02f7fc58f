import type { Coin, Wallet } from '@p2p/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { walletsQueryOptions } from './get-wallets';

/** POST /api/v1/wallets/create: one wallet per coin (409 WALLET_EXISTS). */
export function createWallet(coinCode: Coin) {
  return api.post<Wallet>('/api/v1/wallets/create', { coinCode });
}

/** Creates a wallet and refreshes the wallet list. */
export function useCreateWallet() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createWallet,
    onSuccess: () => qc.invalidateQueries({ queryKey: walletsQueryOptions().queryKey }),
  });
}
