import type { OrderMessage, OrderMessagePage } from '@p2p/contract';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api, type RequestOptions } from '../../../lib/api-client';

/**
 * Who sends the chat's requests: the member client (api-client) or the operator console's (its own
 * tokens). `name` keeps their caches apart.
 */
export interface ChatClient {
  name: 'member' | 'ops';
  request: <T>(method: string, path: string, opts?: RequestOptions) => Promise<T>;
}

export const memberChatClient: ChatClient = { name: 'member', request: api.request };

/**
 * The order chat's requests (DECISIONS §12). The messages key starts with `ofOrder(orderId)`,
 * which the live `message` event invalidates (notifications/use-live-events.ts); images have their own
 * key because an image never changes and must not be refetched with the list.
 */
export const chatQueries = {
  all: ['order-messages'] as const,
  /** Every client's messages of one order (what a live `message` event makes stale). */
  ofOrder: (orderId: number) => [...chatQueries.all, orderId] as const,
  messages: (client: ChatClient, orderId: number, opts: { pollMs?: number } = {}) =>
    infiniteQueryOptions({
      queryKey: [...chatQueries.ofOrder(orderId), client.name],
      /** GET /buy-orders/{id}/messages?cursor=: 50 a page, oldest first, the cursor reads forward. */
      queryFn: ({ pageParam, signal }) =>
        client.request<OrderMessagePage>('GET', `/buy-orders/${orderId}/messages`, {
          query: { cursor: pageParam },
          signal,
        }),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last) => last.nextCursor ?? undefined,
      refetchInterval: opts.pollMs,
      retry: false,
    }),
  image: (client: ChatClient, message: OrderMessage) =>
    queryOptions({
      queryKey: ['order-message-image', message.orderId, message.messageId, client.name],
      /** GET /buy-orders/{id}/messages/{messageId}/image with the bearer token, as a Blob. */
      queryFn: ({ signal }) => client.request<Blob>('GET', message.image?.url ?? '', { blob: true, signal }),
      staleTime: Number.POSITIVE_INFINITY,
      gcTime: 5 * 60_000,
      retry: 1,
    }),
};

/** POST /buy-orders/{id}/messages {text} (1-1000 characters). Throws CHAT_CLOSED, RATE_LIMITED. */
export function postChatText(client: ChatClient, orderId: number, text: string) {
  return client.request<OrderMessage>('POST', `/buy-orders/${orderId}/messages`, { body: { text } });
}

/**
 * POST /buy-orders/{id}/messages/image, multipart field `file` (JPEG, PNG or WebP, at most 5 MB; the
 * server re-encodes it without metadata). Throws IMAGE_UNSUPPORTED, IMAGE_TOO_LARGE, CHAT_CLOSED.
 */
export function postChatImage(client: ChatClient, orderId: number, file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  return client.request<OrderMessage>('POST', `/buy-orders/${orderId}/messages/image`, { body: form });
}
