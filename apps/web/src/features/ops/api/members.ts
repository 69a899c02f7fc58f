import type { OpsMember } from '@p2p/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { OPS_PAGE_SIZE, opsApi, type Page } from './client';
import { opsQueryRoot } from './query-root';

/** GET /ops/api/v1/members?q= : q matches login ID, nickname, name or phone. */
export const opsMembersQueryOptions = (q: string, cursor: string | undefined) =>
  queryOptions({
    queryKey: [...opsQueryRoot, 'members', q, cursor ?? ''],
    queryFn: () =>
      opsApi.get<Page<OpsMember>>('/ops/api/v1/members', { query: { q, cursor, size: OPS_PAGE_SIZE } }),
    placeholderData: keepPreviousData,
  });

export function useOpsMembers(q: string, cursor: string | undefined) {
  return useQuery(opsMembersQueryOptions(q, cursor));
}

/** POST /ops/api/v1/members/{id}/suspend {reason}: the member can no longer log in or trade (DECISIONS §8). */
export function suspendMember(id: number, reason: string) {
  return opsApi.post<OpsMember>(`/ops/api/v1/members/${id}/suspend`, { reason });
}

/** POST /ops/api/v1/members/{id}/unsuspend {reason?}. */
export function unsuspendMember(id: number, reason?: string) {
  return opsApi.post<OpsMember>(`/ops/api/v1/members/${id}/unsuspend`, reason ? { reason } : {});
}
