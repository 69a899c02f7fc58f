import type { CloseBody, ClosedMembership, LoginHistory } from '@p2p/contract';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /api/v1/my/logins (DECISIONS §19): the member's sign-in attempts of the last 90 days, newest first. */
export function getLoginHistory() {
  return api.get<LoginHistory>('/api/v1/my/logins');
}

export function loginHistoryQueryOptions() {
  return queryOptions({ queryKey: ['my-logins'], queryFn: getLoginHistory });
}

export function useLoginHistory() {
  return useQuery(loginHistoryQueryOptions());
}

/**
 * POST /api/v1/my/close (DECISIONS §19): closes the membership. Throws CURRENT_PASSWORD_REQUIRED,
 * INVALID_CREDENTIALS, ACCOUNT_NOT_EMPTY {liveOrders, activeListings, pendingTransfers, balances}, RATE_LIMITED.
 */
export function useCloseMembership() {
  return useMutation({
    mutationFn: (body: CloseBody) => api.post<ClosedMembership>('/api/v1/my/close', body),
  });
}
