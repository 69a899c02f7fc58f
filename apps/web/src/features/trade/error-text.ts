import i18n from '../../i18n';
import { ApiError } from '../../lib/api-client';
import { errorText } from '../../lib/errors';

/**
 * The toast text of a failed market or wallet call (SPEC §8): the trade catalogue text of its code
 * (trade:errors.<CODE>, the market codes the shell's catalogue lacks), else the shell's errorText.
 */
export function tradeErrorText(err: unknown, fallbackKey: string): string {
  if (err instanceof ApiError) {
    const key = `trade:errors.${err.code}`;
    if (i18n.exists(key)) return i18n.t(key);
  }
  return errorText(err, fallbackKey);
}
