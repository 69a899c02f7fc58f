import type { CompanyInfo } from '@p2p/contract/company.ts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api-client';

/** GET /api/v1/company: the operator's business details, configured on the server, never stale. */
export const companyQueryOptions = () =>
  queryOptions({
    queryKey: ['company'],
    queryFn: () => api.get<CompanyInfo>('/api/v1/company'),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
