/**
 * Idempotency keys of money moves (DECISIONS §15), one per submit. A key is made when a request is first
 * sent and kept while its outcome is unknown (no answer, a timeout, a 5xx, a 401 before the refresh retry,
 * 409 IDEMPOTENCY_KEY_IN_PROGRESS, a rate limit): sending the same request again (the client's own retry,
 * or the member pressing the button again) reuses it, so the server answers the first outcome instead of
 * moving coins twice. Any other answer settles the submit and the next one gets a new key.
 */

interface Pending {
  key: string;
  madeAtMs: number;
}

/** Past this, the server has forgotten the key anyway (it keeps them 24 h); the map stays small. */
const KEEP_MS = 60 * 60_000;
const MAX_PENDING = 50;
/** Secrets prove who asks, not what is asked (the server leaves them out of its request hash too). */
const SECRET_FIELDS = new Set(['stepUp', 'password', 'currentPassword', 'code']);

const pending = new Map<string, Pending>();

function fingerprint(method: string, path: string, body: unknown): string {
  const plain =
    body && typeof body === 'object' && !Array.isArray(body)
      ? Object.fromEntries(Object.entries(body).filter(([k]) => !SECRET_FIELDS.has(k)))
      : body;
  return `${method} ${path} ${JSON.stringify(plain ?? null)}`;
}

/** The key for this request: the pending one of an identical unsettled request, else a new UUID. */
export function idempotencyKeyFor(method: string, path: string, body: unknown): string {
  const fp = fingerprint(method, path, body);
  const now = Date.now();
  for (const [k, p] of pending) if (now - p.madeAtMs > KEEP_MS) pending.delete(k);
  const found = pending.get(fp);
  if (found) return found.key;
  if (pending.size >= MAX_PENDING) pending.delete(pending.keys().next().value ?? '');
  const key = crypto.randomUUID();
  pending.set(fp, { key, madeAtMs: now });
  return key;
}

/** True when an answer leaves the outcome unknown, so that a retry must carry the same key. */
export function outcomeUnknown(status: number, code: string): boolean {
  return (
    status === 0 ||
    status >= 500 ||
    status === 401 ||
    status === 429 ||
    code === 'IDEMPOTENCY_KEY_IN_PROGRESS'
  );
}

/** Forgets the key of a settled request (any answer but those of outcomeUnknown). */
export function settleIdempotencyKey(method: string, path: string, body: unknown): void {
  pending.delete(fingerprint(method, path, body));
}
