import { infiniteQueryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** A page of the member's cursor lists (SPEC §3 "List responses"). */
export interface CursorPage<T> {
  list: T[];
  nextCursor: string | null;
  totalCount: number;
}

/** infiniteQueryOptions of one of the member's cursor lists at `path`, cached under `queryKey`. */
export function cursorListQueryOptions<T>(queryKey: readonly [string], path: string) {
  return infiniteQueryOptions({
    queryKey,
    queryFn: ({ pageParam }) => api.get<CursorPage<T>>(path, { query: { cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}
