import i18n from '../../i18n';
import { ApiError } from '../../lib/api-client';
import { errorText } from '../../lib/errors';
import { formatClock } from './components/format-clock';

/** Instants a refusal carries in returnData that its text names (DECISIONS §11: {until}, {from}). */
function whenOf(data: Record<string, unknown>, key: string): string | undefined {
  const v = data[key];
  return typeof v === 'string' ? formatClock(v) : undefined;
}

/**
 * The toast text of a failed market or wallet call (SPEC §8): the trade catalogue text of its code
 * (trade:errors.<CODE>, the market codes the shell's catalogue lacks), else the shell's errorText. The
 * protocol's refusals say why and until when (DECISIONS §11): PURCHASE_BLOCKED {until},
 * TOO_MANY_LIVE_ORDERS {max}, DISPUTE_TOO_EARLY {from}.
 */
export function tradeErrorText(err: unknown, fallbackKey: string): string {
  if (err instanceof ApiError) {
    const key = `trade:errors.${err.code}`;
    if (i18n.exists(key)) {
      return i18n.t(key, {
        until: whenOf(err.data, 'until') ?? '-',
        from: whenOf(err.data, 'from') ?? '-',
        max: typeof err.data.max === 'number' ? err.data.max : 3,
      });
    }
  }
  return errorText(err, fallbackKey);
}
