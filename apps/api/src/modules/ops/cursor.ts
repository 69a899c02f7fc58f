import { fieldError } from '../../http/errors.ts';

/**
 * Opaque keyset cursors of the operator lists: the last row's id, base64url-encoded so clients treat it
 * as opaque. Lists here run newest first on `id`, which is unique and indexed, so every page costs the same.
 */
export function encodeIdCursor(id: number): string {
  return Buffer.from(`i:${id}`).toString('base64url');
}

/** Decodes a cursor from encodeIdCursor. Throws VALIDATION_FAILED {cursor: INVALID_FORMAT} when forged. */
export function decodeIdCursor(cursor: string): number {
  const m = /^i:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw fieldError({ cursor: 'INVALID_FORMAT' });
  return Number.parseInt(m[1] ?? '', 10);
}
