import { describe, expect, it } from 'vitest';
import i18n from '../../i18n';
import { ApiError } from '../../lib/api-client';
import { formatClock } from './components/format-clock';
import { tradeErrorText } from './error-text';

describe('refusals of the trade protocol say why and until when (DECISIONS §11)', () => {
  it('PURCHASE_BLOCKED names its time, TOO_MANY_LIVE_ORDERS the maximum, DISPUTE_TOO_EARLY from when', async () => {
    await i18n.changeLanguage('kr');
    await i18n.loadNamespaces('trade');
    const until = '2026-11-23T05:30:00.000Z';
    expect(tradeErrorText(new ApiError('PURCHASE_BLOCKED', 422, {}, { until }), 'x')).toBe(
      `최근 24시간 동안 취소나 기간 만료가 많아 ${formatClock(until)}까지 구매할 수 없어요.`,
    );
    expect(tradeErrorText(new ApiError('TOO_MANY_LIVE_ORDERS', 422, {}, { max: 3 }), 'x')).toContain(
      '이미 3건',
    );
    const from = '2026-11-22T05:15:00.000Z';
    expect(tradeErrorText(new ApiError('DISPUTE_TOO_EARLY', 422, {}, { from }), 'x')).toContain(
      `${formatClock(from)}부터`,
    );
    expect(tradeErrorText(new ApiError('STEP_UP_REQUIRED', 422), 'x')).toBe(
      '코인을 지급하려면 비밀번호를 입력해 주세요.',
    );
    expect(tradeErrorText(new ApiError('INVALID_STATE', 409), 'x')).toContain('주문 상태가 바뀌었어요');
  });
});
