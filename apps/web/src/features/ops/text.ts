import { format } from 'date-fns';
import i18n from '../../i18n';
import { ApiError } from '../../lib/api-client';

/**
 * The text of a failed operator call: the console's own text for the code (ops:errors.<CODE>), else the
 * member app's (common:errors.<CODE>), else a generic text that still names the code, which an operator
 * can act on.
 */
export function opsErrorText(err: unknown): string {
  const code = err instanceof ApiError ? err.code : 'INTERNAL_ERROR';
  for (const key of [`ops:errors.${code}`, `common:errors.${code}`]) if (i18n.exists(key)) return i18n.t(key);
  return i18n.t('ops:errors.generic', { code });
}

/** The text of a field code from `@p2p/contract` FIELD_CODES (ops:fieldErrors, then common:fields). */
export function opsFieldText(code: string | undefined): string | undefined {
  if (!code) return undefined;
  for (const key of [`ops:fieldErrors.${code}`, `common:fields.${code}`])
    if (i18n.exists(key)) return i18n.t(key);
  return code;
}

/** ISO 8601 -> "2026-11-21 13:05:09" in the browser's time zone; '' for null. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : format(d, 'yyyy-MM-dd HH:mm:ss');
}
