import type { NotificationPage, NotificationSettings } from '@p2p/contract/trade-room.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';

/** Query keys of the notifications (DECISIONS §12); live events invalidate them (use-live-events.ts). */
export const notificationKeys = {
  all: ['notifications'] as const,
  list: ['notifications', 'list'] as const,
  unread: ['notifications', 'unread'] as const,
  settings: ['notifications', 'settings'] as const,
};

/** useInfiniteQuery options of GET /api/v1/notifications (newest first, 20 a page). */
export const notificationList = {
  queryKey: notificationKeys.list,
  queryFn: ({ pageParam }: { pageParam: string | undefined }) =>
    api.get<NotificationPage>('/api/v1/notifications', { query: { cursor: pageParam } }),
  initialPageParam: undefined as string | undefined,
  getNextPageParam: (last: NotificationPage) => last.nextCursor ?? undefined,
};

/** The unread count of the header badge; only while signed in. */
export function useUnreadCount(enabled: boolean) {
  return useQuery({
    queryKey: notificationKeys.unread,
    queryFn: () => api.get<{ unreadCount: number }>('/api/v1/notifications/unread-count'),
    enabled,
    staleTime: 30_000,
    select: (d) => d.unreadCount,
  });
}

/** POST /api/v1/notifications/read {ids}; refreshes the list and the badge. */
export function useMarkRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (ids: number[]) => api.post<{ unreadCount: number }>('/api/v1/notifications/read', { ids }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}

/** The SMS alert switch (GET/PUT /api/v1/notifications/settings). */
export function useNotificationSettings() {
  return useQuery({
    queryKey: notificationKeys.settings,
    queryFn: () => api.get<NotificationSettings>('/api/v1/notifications/settings'),
  });
}

export function useSaveNotificationSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (s: NotificationSettings) =>
      api.put<NotificationSettings>('/api/v1/notifications/settings', s),
    onSuccess: (data) => qc.setQueryData(notificationKeys.settings, data),
  });
}
