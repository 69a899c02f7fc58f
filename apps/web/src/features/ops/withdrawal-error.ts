import type { TFunction } from 'i18next';

/** The signer's codes the console explains in words (ops:withdrawals.errorCodes.<CODE>). */
const KNOWN = [
  'SIGNER_LIMIT_TX',
  'SIGNER_LIMIT_DAY',
  'SIGNER_UNAVAILABLE',
  'SIGNER_REFUSED',
  'SIGNER_REQUEST_REUSED',
];

/**
 * A payout worker's `lastError` for an operator: a signer code it starts with in words, the raw text kept after
 * it (e.g. "Above the signer's per-transaction limit · SIGNER_LIMIT_TX: 0.8 > 0.7"); anything else as it is.
 */
export function withdrawalErrorText(t: TFunction<['ops']>, lastError: string): string {
  const code = /^[A-Z_]+/.exec(lastError)?.[0];
  if (!code || !KNOWN.includes(code)) return lastError;
  return `${t(`ops:withdrawals.errorCodes.${code}`)} · ${lastError}`;
}
