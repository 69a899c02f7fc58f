import type { Coin } from '@p2p/contract';
import { type AccountsResponse, signRequestSchema } from '@p2p/signer-protocol';
import type { SignerClient } from '../../chains/signer-client.ts';
import { AppError } from '../../errors/index.ts';

/**
 * What the withdrawal pipeline needs of the signer (apps/signer, SIGNER-PROTOCOL `POST /v1/sign`): one signed
 * transaction per requestId. The signer client (chains/signer-client.ts) fits it; no key is ever here.
 */
export interface SignRequest {
  requestId: string;
  coin: Coin;
  purpose: 'WITHDRAWAL' | 'SWEEP' | 'COLD_SWEEP';
  intent: Record<string, unknown>;
}

/** The signer's answer: `amount` and `fee` are coin decimal strings the signer derived from what it signed. */
export interface SignResult {
  requestId: string;
  coin: Coin;
  txid: string;
  signedTx: string;
  amount: string;
  fee: string;
}

export interface PayoutSigner {
  sign(req: SignRequest): Promise<SignResult>;
  /**
   * GET /v1/accounts of the signer: its master key's fingerprint and its public account keys. The BTC payer
   * names the fingerprint in its PSBTs (DECISIONS §18); a signer without it cannot be given BTC withdrawals.
   */
  accounts?(): Promise<AccountsResponse>;
}

/** The error codes of a signer that refused for good what it was asked (limits, a reused requestId, an intent it will not sign). */
const REFUSALS = new Set(['SIGNER_LIMIT_TX', 'SIGNER_LIMIT_DAY', 'SIGNER_REQUEST_REUSED', 'SIGNER_REFUSED']);

/** The stable code an error carries (AppError's `code`, or a plain `{code}` of the signer's error body). */
export function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; returnMessage?: unknown };
  if (typeof e?.code === 'string') return e.code;
  if (typeof e?.returnMessage === 'string') return e.returnMessage;
  return undefined;
}

/**
 * Whether the signer refused the request over its own rules (per-transaction or per-day limit, a requestId
 * reused with another intent): nothing was signed, and asking again at once will not help. Anything else
 * (the signer down, slow, a network error) is worth asking again with the same intent.
 */
export function isSignerRefusal(err: unknown): boolean {
  const code = errorCode(err);
  return code !== undefined && REFUSALS.has(code);
}

/** A short text for lastError: the code and the message, bounded. */
export function describeError(err: unknown): string {
  const code = errorCode(err);
  const message = err instanceof Error ? err.message : String(err);
  const text = code && !message.includes(code) ? `${code}: ${message}` : message;
  return text.replace(/\/\/[^/\s@]*@/g, '//[redacted]@').slice(0, 300);
}

/**
 * The payout workers' signer backed by the signer process (apps/signer, DECISIONS §18). Each request is checked
 * against the protocol's shape here first, so an intent the pipeline built wrong is a refusal
 * (SIGNER_REFUSED {reason: 'MALFORMED_INTENT'}) rather than a call retried for ever; the client's own errors
 * (SIGNER_LIMIT_*, SIGNER_UNAVAILABLE, ...) pass through.
 */
export function remotePayoutSigner(client: SignerClient): PayoutSigner {
  return {
    async sign(req) {
      const parsed = signRequestSchema.safeParse(req);
      if (!parsed.success) throw new AppError('SIGNER_REFUSED', { reason: 'MALFORMED_INTENT' });
      return client.sign(parsed.data);
    },
    accounts: () => client.accounts(),
  };
}
