import type { Page } from '@p2p/contract';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** infiniteQueryOptions of one of the member's cursor lists at `path`, cached under `queryKey`. */
export function cursorListQueryOptions<T>(queryKey: readonly [string], path: string) {
  return infiniteQueryOptions({
    queryKey,
    queryFn: ({ pageParam }) => api.get<Page<T>>(path, { query: { cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}
