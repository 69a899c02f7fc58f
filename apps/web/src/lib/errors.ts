import i18n from '../i18n';
import { ApiError } from './api-client';
import { formatClock } from './format-time';

/**
 * Where a screen looks an error code up (SPEC §8), most specific first: `trade:errors` holds the market
 * codes and the trade wording of shared ones (STEP_UP_REQUIRED: "to release coins"), `ops:errors` the
 * console's; `common:errors` is the catalogue every screen falls back to.
 */
export type ErrorScope = 'member' | 'trade' | 'ops';

const NAMESPACES: Record<ErrorScope, readonly string[]> = {
  member: ['common'],
  trade: ['trade', 'common'],
  ops: ['ops', 'common'],
};

/**
 * The one lookup from an error code (the contract's catalogue `ErrorCode`, packages/contract/src/errors.ts,
 * or one the client makes: NETWORK_ERROR, TIMEOUT, NOT_OPERATOR) to its i18n key: `<ns>:errors.<CODE>` of
 * the first namespace of `scope` that has it, else undefined.
 */
export function errorKey(code: string, scope: ErrorScope = 'member'): string | undefined {
  for (const ns of NAMESPACES[scope]) {
    const key = `${ns}:errors.${code}`;
    if (i18n.exists(key)) return key;
  }
  return undefined;
}

/** Instants a refusal carries in returnData that its text names (DECISIONS §11: {until}, {from}). */
function whenOf(data: Record<string, unknown>, key: string): string | undefined {
  const v = data[key];
  return typeof v === 'string' ? formatClock(v) : undefined;
}

/**
 * The localized text of a failed call (SPEC §8): the text of its code (errorKey), with what the refusal
 * carries (DECISIONS §11: PURCHASE_BLOCKED {until}, TOO_MANY_LIVE_ORDERS {max}, DISPUTE_TOO_EARLY {from}),
 * else the screen's `fallbackKey` (which may name the code: the console's ops:errors.generic).
 */
export function errorText(err: unknown, fallbackKey: string, scope: ErrorScope = 'member'): string {
  const code = err instanceof ApiError ? err.code : 'INTERNAL_ERROR';
  const key = err instanceof ApiError || scope === 'ops' ? errorKey(code, scope) : undefined;
  if (!key) return i18n.t(fallbackKey, { code });
  const data = err instanceof ApiError ? err.data : {};
  return i18n.t(key, {
    until: whenOf(data, 'until') ?? '-',
    from: whenOf(data, 'from') ?? '-',
    max: typeof data.max === 'number' ? data.max : 3,
    // DECISIONS §19: KYC_REQUIRED {level}, UNDERAGE {minAge}
    level: typeof data.level === 'number' ? data.level : 1,
    minAge: typeof data.minAge === 'number' ? data.minAge : 19,
    // DECISIONS §19: WITHDRAWAL_HELD {until, heldAmount}, TRAVEL_RULE_INFO_REQUIRED {minKrw}
    heldAmount: typeof data.heldAmount === 'string' ? data.heldAmount : '-',
    minKrw: typeof data.minKrw === 'number' ? data.minKrw.toLocaleString('ko-KR') : '1,000,000',
  });
}

/**
 * The localized text of a field code from `@p2p/contract` FIELD_CODES or a form rule (`common:fields.<CODE>`;
 * the console looks in `ops:fieldErrors` first); the code itself when no text exists.
 */
export function fieldText(code: string | undefined, scope: ErrorScope = 'member'): string | undefined {
  if (!code) return undefined;
  const keys =
    scope === 'ops' ? [`ops:fieldErrors.${code}`, `common:fields.${code}`] : [`common:fields.${code}`];
  for (const key of keys) if (i18n.exists(key)) return i18n.t(key);
  return code;
}
