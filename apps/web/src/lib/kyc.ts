import type { KycStatus } from '@p2p/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';

/**
 * GET /api/v1/kyc (DECISIONS §19): the level, the verified name, the newest ID document, the policy and when
 * coins bought now could leave (`purchaseHeldUntil`). In lib because two features read it: the 인증 센터
 * (account) and the purchase screen (trade), which must not import each other both ways.
 */
export const kycQueryOptions = () =>
  queryOptions({ queryKey: ['kyc'], queryFn: () => api.get<KycStatus>('/api/v1/kyc') });

export const useKyc = () => useQuery(kycQueryOptions());
