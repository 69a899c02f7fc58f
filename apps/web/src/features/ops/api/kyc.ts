import type { KycDocumentStatus, OpsKycDocument } from '@p2p/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { opsApi, type Page } from './client';
import { opsQueryRoot } from './query-root';

/** The key every page of the KYC queue starts with. */
export const opsKycKey = [...opsQueryRoot, 'kyc'] as const;

/** GET /ops/api/v1/kyc?status= (DECISIONS §19): ID documents of a status, oldest first, at most 100. */
export const opsKycQueryOptions = (status: KycDocumentStatus | undefined) =>
  queryOptions({
    queryKey: [...opsKycKey, status ?? 'ALL'],
    queryFn: () => opsApi.get<Page<OpsKycDocument>>('/ops/api/v1/kyc', { query: { status } }),
    placeholderData: keepPreviousData,
  });

export function useOpsKyc(status: KycDocumentStatus | undefined) {
  return useQuery(opsKycQueryOptions(status));
}

/**
 * GET /ops/api/v1/kyc/{id}/image: the decrypted document (JPEG or PNG) as a Blob; each viewing is written to
 * the audit log by the API.
 */
export function kycDocumentImage(id: number) {
  return opsApi.get<Blob>(`/ops/api/v1/kyc/${id}/image`, { blob: true });
}

/** POST /ops/api/v1/kyc/{id}/approve: the member reaches level 2. */
export function approveKycDocument(id: number) {
  return opsApi.post(`/ops/api/v1/kyc/${id}/approve`, undefined, { idempotent: true });
}

/** POST /ops/api/v1/kyc/{id}/reject {reason}: the member sees the reason and may upload again. */
export function rejectKycDocument(id: number, reason: string) {
  return opsApi.post(`/ops/api/v1/kyc/${id}/reject`, { reason }, { idempotent: true });
}
