import type { NotificationPage, NotificationSettings } from '@p2p/contract/trade-room.ts';
import {
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { api } from '../../lib/api-client';

/** The key every notification query starts with (DECISIONS §12); live events invalidate it (use-live-events.ts). */
export const notificationKeys = { all: ['notifications'] as const };

/** GET /api/v1/notifications (newest first, 20 a page) as an infinite query. */
export const notificationListQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: [...notificationKeys.all, 'list'],
    queryFn: ({ pageParam }) =>
      api.get<NotificationPage>('/api/v1/notifications', { query: { cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

/** GET /api/v1/notifications/unread-count: the header badge. */
export const unreadCountQueryOptions = () =>
  queryOptions({
    queryKey: [...notificationKeys.all, 'unread'],
    queryFn: () => api.get<{ unreadCount: number }>('/api/v1/notifications/unread-count'),
    staleTime: 30_000,
    select: (d) => d.unreadCount,
  });

/** The unread count of the header badge; only while signed in. */
export function useUnreadCount(enabled: boolean) {
  return useQuery({ ...unreadCountQueryOptions(), enabled });
}

/** GET /api/v1/notifications/settings: the SMS alert switch. */
export const notificationSettingsQueryOptions = () =>
  queryOptions({
    queryKey: [...notificationKeys.all, 'settings'],
    queryFn: () => api.get<NotificationSettings>('/api/v1/notifications/settings'),
  });

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
  return useQuery(notificationSettingsQueryOptions());
}

export function useSaveNotificationSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (s: NotificationSettings) =>
      api.put<NotificationSettings>('/api/v1/notifications/settings', s),
    onSuccess: (data) => qc.setQueryData(notificationSettingsQueryOptions().queryKey, data),
  });
}
