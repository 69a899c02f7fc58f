import { AppError } from '../errors/index.ts';

/**
 * Opaque keyset cursors (SPEC §3 "List responses"): base64url of JSON {s: scope, k: sort key, i: last id}.
 * The scope (e.g. the sort of the trade list) is checked on decode so a cursor of one list cannot drive
 * another. Any malformed cursor is 400 VALIDATION_FAILED {cursor: INVALID_FORMAT}.
 */
export interface Cursor {
  /** the last row's sort key (whole won for price sorts), null when the list sorts by id only */
  key: number | null;
  id: number;
}

export function encodeCursor(scope: string, c: Cursor): string {
  return Buffer.from(JSON.stringify({ s: scope, k: c.key, i: c.id })).toString('base64url');
}

function badCursor(): AppError {
  return new AppError('VALIDATION_FAILED', { fields: { cursor: 'INVALID_FORMAT' } });
}

const isSafeInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** Decodes a cursor made by encodeCursor for `scope`; throws 400 VALIDATION_FAILED on anything else. */
export function decodeCursor(scope: string, raw: string | undefined, needsKey: boolean): Cursor | null {
  if (raw === undefined || raw === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (typeof parsed !== 'object' || parsed === null) throw badCursor();
  const { s, k, i } = parsed as Record<string, unknown>;
  if (s !== scope || !isSafeInt(i) || i < 1) throw badCursor();
  if (!needsKey) {
    if (k !== null) throw badCursor();
    return { key: null, id: i };
  }
  if (!isSafeInt(k)) throw badCursor();
  return { key: k, id: i };
}

/** A cursor of a list that runs on `id` alone (newest or oldest first), bound to `scope`. */
export function encodeIdCursor(scope: string, id: number): string {
  return encodeCursor(scope, { key: null, id });
}

/** The id inside a cursor from encodeIdCursor(scope); 400 VALIDATION_FAILED {cursor: INVALID_FORMAT} otherwise. */
export function decodeIdCursor(scope: string, raw: string): number {
  const c = decodeCursor(scope, raw, false);
  if (!c) throw badCursor();
  return c.id;
}
