import type { OpsAuditEntry } from '@p2p/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { OPS_PAGE_SIZE, opsApi, type Page } from './client';
import { opsQueryRoot } from './query-root';

export const AUDIT_TARGET_TYPES = ['listing', 'order', 'withdrawal', 'deposit', 'member'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** GET /ops/api/v1/audit-log: every operator action, newest first (DECISIONS §6, §8). */
export const auditLogQueryOptions = (
  targetType: AuditTargetType | undefined,
  cursor: string | undefined,
  size = OPS_PAGE_SIZE,
) =>
  queryOptions({
    queryKey: [...opsQueryRoot, 'audit-log', targetType ?? 'ALL', cursor ?? '', size],
    queryFn: () =>
      opsApi.get<Page<OpsAuditEntry>>('/ops/api/v1/audit-log', { query: { targetType, cursor, size } }),
    placeholderData: keepPreviousData,
  });

export function useAuditLog(
  targetType: AuditTargetType | undefined,
  cursor: string | undefined,
  size = OPS_PAGE_SIZE,
) {
  return useQuery(auditLogQueryOptions(targetType, cursor, size));
}
