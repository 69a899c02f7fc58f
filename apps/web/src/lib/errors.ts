import i18n from '../i18n';
import { ApiError } from './api-client';

/**
 * The localized text for a failed call (SPEC §8): the catalogue text of its error code when there is one
 * (`common:errors.<CODE>`), else the screen's default text `fallbackKey`.
 */
export function errorText(err: unknown, fallbackKey: string): string {
  if (err instanceof ApiError) {
    const key = `common:errors.${err.code}`;
    if (i18n.exists(key)) return i18n.t(key);
  }
  return i18n.t(fallbackKey);
}

/** The localized text of a field code from `@p2p/contract` FIELD_CODES or a form rule (`common:fields.<CODE>`). */
export function fieldText(code: string | undefined): string | undefined {
  if (!code) return undefined;
  const key = `common:fields.${code}`;
  return i18n.exists(key) ? i18n.t(key) : code;
}
