import { z } from 'zod';

/** The response envelope of every call (SPEC §3, DECISIONS §2). returnCode 0 = success. */
export interface Envelope<T> {
  returnCode: number;
  returnMessage: string;
  returnData: T;
}

/** Zod schema of a success envelope around `data`. */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({ returnCode: z.literal(0), returnMessage: z.string(), returnData: data });
}

/** Zod schema of a failure envelope. */
export const errorEnvelope = z.object({
  returnCode: z.number().int(),
  returnMessage: z.string(),
  returnData: z
    .object({ fields: z.record(z.string(), z.string()).optional() })
    .passthrough()
    .nullable(),
});

/**
 * Where a list's total stops being counted (issue 27): past it `totalCount` is this number and `totalCapped`
 * is true, shown as "1,000+". Counting a long history exactly would read all of it on every page; counting
 * to 10,000 still cost 3-25 ms a page at two million orders (a search's matches are heap rows), several times
 * the page itself, so the growth benchmark's lists were 2-5x slower grown than small (bench/README.md).
 */
export const TOTAL_COUNT_CAP = 1_000;

/** A page of a keyset-paginated list (SPEC §3 "List responses"). */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    list: z.array(item),
    nextCursor: z.string().nullable(),
    totalCount: z.number().int(),
    /**
     * True when there are more rows than the list's cap (TOTAL_COUNT_CAP; a console member search 100):
     * `totalCount` is then the cap, not the count.
     */
    totalCapped: z.boolean().optional(),
  });
}

/** The shape `pageOf(item)` validates, for code that builds or reads a page of `T`. */
export interface Page<T> {
  list: T[];
  nextCursor: string | null;
  totalCount: number;
  /** True when the total passed the list's cap (`totalCount` is the cap); absent or false otherwise. */
  totalCapped?: boolean;
}
