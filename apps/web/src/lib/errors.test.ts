import { describe, expect, it } from 'vitest';
import '../features/ops/i18n';
import i18n from '../i18n';
import { ApiError } from './api-client';
import { errorKey, errorText, fieldText } from './errors';
import { formatClock } from './format-time';

describe('refusals of the trade protocol say why and until when (DECISIONS §11)', () => {
  it('PURCHASE_BLOCKED names its time, TOO_MANY_LIVE_ORDERS the maximum, DISPUTE_TOO_EARLY from when', async () => {
    await i18n.changeLanguage('kr');
    await i18n.loadNamespaces('trade');
    const until = '2026-11-23T05:30:00.000Z';
    expect(errorText(new ApiError('PURCHASE_BLOCKED', 422, {}, { until }), 'x', 'trade')).toBe(
      `최근 24시간 동안 취소나 기간 만료가 많아 ${formatClock(until)}까지 구매할 수 없어요.`,
    );
    expect(errorText(new ApiError('TOO_MANY_LIVE_ORDERS', 422, {}, { max: 3 }), 'x', 'trade')).toContain(
      '이미 3건',
    );
    const from = '2026-11-22T05:15:00.000Z';
    expect(errorText(new ApiError('DISPUTE_TOO_EARLY', 422, {}, { from }), 'x', 'trade')).toContain(
      `${formatClock(from)}부터`,
    );
    expect(errorText(new ApiError('STEP_UP_REQUIRED', 422), 'x', 'trade')).toBe(
      '코인을 지급하려면 비밀번호를 입력해 주세요.',
    );
    expect(errorText(new ApiError('INVALID_STATE', 409), 'x', 'trade')).toContain('주문 상태가 바뀌었어요');
  });
});

describe('one lookup from an error code to its i18n key', () => {
  it("looks in the scope's namespaces, most specific first, and falls back to the screen's text", async () => {
    await i18n.changeLanguage('kr');
    await i18n.loadNamespaces('trade');
    expect(errorKey('STEP_UP_REQUIRED')).toBe('common:errors.STEP_UP_REQUIRED');
    expect(errorKey('STEP_UP_REQUIRED', 'trade')).toBe('trade:errors.STEP_UP_REQUIRED');
    expect(errorKey('INVALID_STATE', 'member')).toBeUndefined();
    expect(errorKey('FORBIDDEN', 'ops')).toBe('ops:errors.FORBIDDEN');
    expect(errorKey('INVALID_CREDENTIALS', 'ops')).toBe('ops:errors.INVALID_CREDENTIALS');
    expect(errorText(new ApiError('NO_SUCH_CODE', 400), 'ops:errors.generic', 'ops')).toContain(
      'NO_SUCH_CODE',
    );
    expect(errorText(new Error('boom'), 'auth:login.failed')).toBe(i18n.t('auth:login.failed'));
    expect(fieldText(undefined)).toBeUndefined();
    expect(fieldText('NOT_A_FIELD_CODE')).toBe('NOT_A_FIELD_CODE');
  });
});
