import type { Transfer, TransferRequestBody } from '@p2p/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { transfersKey } from './get-transfers';
import { walletsQueryOptions } from './get-wallets';

/**
 * POST /transfer/request (DECISIONS §5): INTERNAL to another member's wallet (instant) or EXTERNAL to a
 * checksummed outside address (PENDING until the operator sends it). Throws INSUFFICIENT_BALANCE,
 * INVALID_ADDRESS, SELF_TRANSFER, WALLET_NOT_FOUND.
 */
export function requestTransfer(body: TransferRequestBody) {
  return api.post<Transfer>('/transfer/request', body, { idempotent: true });
}

/** Sends and refreshes the wallets and their histories. */
export function useRequestTransfer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: requestTransfer,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: walletsQueryOptions().queryKey });
      void qc.invalidateQueries({ queryKey: transfersKey });
    },
  });
}
