import { api } from '../../../lib/api-client';

/** A page of the member's cursor lists (SPEC §3 "List responses"). */
export interface CursorPage<T> {
  list: T[];
  nextCursor: string | null;
  totalCount: number;
}

/** useInfiniteQuery options for one of the member's cursor lists at `path`, cached under `key`. */
export function cursorList<T>(key: string, path: string) {
  return {
    queryKey: [key],
    queryFn: ({ pageParam }: { pageParam: string | undefined }) =>
      api.get<CursorPage<T>>(path, { query: { cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: CursorPage<T>) => last.nextCursor ?? undefined,
  };
}
