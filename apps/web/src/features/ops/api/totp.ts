import type { OpsTotpEnrollment, OpsTotpStatus } from '@p2p/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { opsApi } from './client';
import { opsQueryRoot } from './query-root';

const KEY = [...opsQueryRoot, 'totp'] as const;

/** GET /ops/api/v1/totp: whether the signed-in operator's second factor is on (DECISIONS §13). */
export const totpStatusQueryOptions = () =>
  queryOptions({
    queryKey: KEY,
    queryFn: () => opsApi.get<OpsTotpStatus>('/ops/api/v1/totp'),
    retry: false,
  });

export function useTotpStatus() {
  return useQuery(totpStatusQueryOptions());
}

/** POST /ops/api/v1/totp/enroll -> a new pending {secret, otpauthUrl}; 409 TOTP_ALREADY_ENROLLED once on. */
export function useEnrollTotp() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => opsApi.post<OpsTotpEnrollment>('/ops/api/v1/totp/enroll'),
    onSettled: () => qc.invalidateQueries({ queryKey: KEY }),
  });
}

/** POST /ops/api/v1/totp/confirm {code}: turns the factor on; 400 TOTP_INVALID for a wrong code. */
export function useConfirmTotp() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => opsApi.post<OpsTotpStatus>('/ops/api/v1/totp/confirm', { code }),
    onSuccess: (status) => qc.setQueryData(KEY, status),
  });
}
