import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { openEventStream, streamAllowed } from '../../../lib/event-stream';
import { session } from '../../../lib/storage';
import { chatQueries } from '../../trade';
import { opsApi } from '../api/client';
import { disputeQueueKey, opsOrderKey } from '../api/disputes';
import { opsListingsKey } from '../api/listings';
import { opsOrdersKey } from '../api/orders';
import { OPS_STORAGE_KEYS, useOpsSession } from '../api/session';
import { opsSummaryQueryOptions } from '../api/summary';
import { opsWithdrawalsKey } from '../api/withdrawals';

/** The console's queues: what waits for an operator (DECISIONS §10, §11). Only mounted queries refetch. */
const queueKeys = () => [
  opsSummaryQueryOptions().queryKey,
  opsListingsKey,
  opsWithdrawalsKey,
  opsOrdersKey,
  disputeQueueKey,
  opsOrderKey,
];

function invalidate(qc: QueryClient, event: string, data: Record<string, unknown>): void {
  const orderId = typeof data.orderId === 'number' ? data.orderId : undefined;
  // a chat line in some order: only that order's chat is stale, not the queues
  if ((event === 'ops' && data.kind === 'MESSAGE') || event === 'message') {
    if (orderId) void qc.invalidateQueries({ queryKey: chatQueries.ofOrder(orderId) });
    return;
  }
  if (event === 'ops' || event === 'order' || event === 'reset') {
    for (const queryKey of queueKeys()) void qc.invalidateQueries({ queryKey });
  }
  if (event === 'reset') void qc.invalidateQueries({ queryKey: chatQueries.all });
}

/**
 * Keeps one GET /api/v1/events stream open with the operator's token while the console is signed in
 * (DECISIONS §12) and refetches the console's queues when an `ops` event (a new dispute, a
 * listing to review, a dispute settled) or an `order` event arrives, so the counts and queues update
 * without a reload; an `ops` MESSAGE refreshes that order's chat. A 401 refreshes the ops tokens the way
 * the console client does; the stream closes on logout and unmount (lib/event-stream.ts).
 */
export function useOpsLiveEvents(): void {
  const qc = useQueryClient();
  const signedIn = useOpsSession((st) => Boolean(st.accessToken));
  useEffect(() => {
    if (!signedIn || !streamAllowed()) return;
    return openEventStream({
      token: () => session.get(OPS_STORAGE_KEYS.accessToken),
      refresh: opsApi.refreshTokens,
      onEvent: (event, data) => invalidate(qc, event, data),
      onReopen: () => invalidate(qc, 'reset', {}),
    });
  }, [qc, signedIn]);
}
