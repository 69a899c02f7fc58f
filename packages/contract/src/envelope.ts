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

/** A page of a keyset-paginated list (SPEC §3 "List responses"). */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ list: z.array(item), nextCursor: z.string().nullable(), totalCount: z.number().int() });
}

/** The shape `pageOf(item)` validates, for code that builds or reads a page of `T`. */
export interface Page<T> {
  list: T[];
  nextCursor: string | null;
  totalCount: number;
}
