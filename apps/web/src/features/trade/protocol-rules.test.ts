import { describe, expect, it } from 'vitest';
import {
  canRelease,
  formatRemaining,
  memberActions,
  secondsLeft,
  sellerStatsParts,
  stepOf,
} from './protocol-rules';

const NOW = Date.parse('2026-11-22T10:00:00Z');
const order = (status: Parameters<typeof memberActions>[0]['status'], extra = {}) => ({
  status,
  disputeOpensAt: null,
  dispute: null,
  ...extra,
});

describe('buttons from the transition table (DECISIONS §11)', () => {
  it('REQUESTED: the buyer reports the payment or cancels; the seller completes or rejects', () => {
    expect(memberActions(order('REQUESTED'), 'buyer', NOW).actions).toEqual(['paid', 'cancel']);
    expect(memberActions(order('REQUESTED'), 'seller', NOW).actions).toEqual(['complete', 'reject']);
  });

  it('PAID: the seller may no longer reject; the buyer disputes only once the window opened', () => {
    expect(memberActions(order('PAID'), 'seller', NOW).actions).toEqual(['complete', 'dispute']);
    const early = memberActions(order('PAID', { disputeOpensAt: '2026-11-22T10:15:00Z' }), 'buyer', NOW);
    expect(early).toEqual({ actions: ['cancel'], disputeLater: '2026-11-22T10:15:00Z' });
    const open = memberActions(order('PAID', { disputeOpensAt: '2026-11-22T09:59:59Z' }), 'buyer', NOW);
    expect(open).toEqual({ actions: ['dispute', 'cancel'], disputeLater: null });
  });

  it('DISPUTED: only the party without a statement may add one; ended orders offer nothing', () => {
    const d = { reason: 'OTHER', openedBy: 'SELLER', buyerStatement: null, sellerStatement: 'x' };
    expect(memberActions(order('DISPUTED', { dispute: d }), 'buyer', NOW).actions).toEqual(['statement']);
    expect(memberActions(order('DISPUTED', { dispute: d }), 'seller', NOW).actions).toEqual([]);
    for (const s of ['COMPLETED', 'CANCELED', 'REJECTED', 'EXPIRED'] as const) {
      expect(memberActions(order(s), 'buyer', NOW).actions).toEqual([]);
      expect(memberActions(order(s), 'seller', NOW).actions).toEqual([]);
    }
  });
});

describe('the step tracker', () => {
  it('신청 -> 입금 -> 판매자 확인 -> 지급; an order ended without delivery has no step', () => {
    expect(stepOf('REQUESTED')).toBe(1);
    expect(stepOf('PAID')).toBe(2);
    expect(stepOf('DISPUTED')).toBe(2);
    expect(stepOf('COMPLETED')).toBe(4);
    expect(stepOf('EXPIRED')).toBeNull();
  });
});

describe("the seller's track record line", () => {
  const since = '2026-01-01T00:00:00Z';
  it('shows trades, rate and the median release in minutes', () => {
    expect(
      sellerStatsParts({
        completedTrades: 152,
        completionRatePct: 98,
        medianReleaseSec: 420,
        memberSince: since,
      }),
    ).toEqual([
      { key: 'trades', count: 152 },
      { key: 'rate', pct: 98 },
      { key: 'release', minutes: 7 },
    ]);
  });

  it('a seller below 5 ended orders is new; nulls are left out; a release under a minute reads 1', () => {
    const fresh = { completedTrades: 0, completionRatePct: null, medianReleaseSec: null, memberSince: since };
    expect(sellerStatsParts(fresh)).toEqual([{ key: 'new' }]);
    expect(sellerStatsParts({ ...fresh, completedTrades: 3 })).toEqual([
      { key: 'new' },
      { key: 'trades', count: 3 },
    ]);
    expect(sellerStatsParts({ ...fresh, completionRatePct: 100, medianReleaseSec: 20 })).toEqual([
      { key: 'rate', pct: 100 },
      { key: 'release', minutes: 1 },
    ]);
  });
});

describe('countdown, statement and release rules', () => {
  it('counts whole seconds down to the deadline and formats hours when needed', () => {
    expect(secondsLeft('2026-11-22T10:30:00Z', NOW)).toBe(1800);
    expect(secondsLeft('2026-11-22T09:00:00Z', NOW)).toBe(0);
    expect(secondsLeft(null, NOW)).toBe(0);
    expect(formatRemaining(1800)).toBe('30:00');
    expect(formatRemaining(3725)).toBe('1:02:05');
  });

  it('the release needs both checks, a valid deposit note and the password', () => {
    const ok = { amountChecked: true, nameChecked: true, txid: ' 0xabc ', password: 'pw', submitting: false };
    expect(canRelease(ok)).toBe(true);
    expect(canRelease({ ...ok, nameChecked: false })).toBe(false);
    expect(canRelease({ ...ok, amountChecked: false })).toBe(false);
    expect(canRelease({ ...ok, txid: '  ' })).toBe(false);
    expect(canRelease({ ...ok, txid: '😀😀😀' })).toBe(false);
    expect(canRelease({ ...ok, password: '' })).toBe(false);
    expect(canRelease({ ...ok, submitting: true })).toBe(false);
  });
});
