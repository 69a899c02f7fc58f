import { describe, expect, it } from 'vitest';
import { buyerMayDispute, DISPUTE_STATEMENT_MAX, disputeStatementError } from './dispute-rules.ts';
import { buyOrderDisputeBody } from './market.ts';

describe('dispute rules (DECISIONS §11)', () => {
  it('a statement is 10 to 2000 characters after trimming, the same bounds as the request schema', () => {
    expect(disputeStatementError('  short   ')).toBe('TOO_SHORT');
    expect(disputeStatementError('I sent it at 14:02.')).toBeUndefined();
    expect(disputeStatementError('x'.repeat(DISPUTE_STATEMENT_MAX))).toBeUndefined();
    expect(disputeStatementError('x'.repeat(DISPUTE_STATEMENT_MAX + 1))).toBe('TOO_LONG');
    for (const s of [
      '  short   ',
      'I sent it at 14:02.',
      'x'.repeat(2000),
      'x'.repeat(2001),
      `  ${'y'.repeat(10)}  `,
    ]) {
      const parsed = buyOrderDisputeBody.safeParse({ reason: 'OTHER', statement: s }).success;
      expect(parsed).toBe(disputeStatementError(s) === undefined);
    }
  });

  it('a buyer may dispute from disputeOpensAt on, never without it', () => {
    const at = '2026-03-10T01:15:00.000Z';
    expect(buyerMayDispute(at, Date.parse(at) - 1)).toBe(false);
    expect(buyerMayDispute(at, Date.parse(at))).toBe(true);
    expect(buyerMayDispute(null, Date.parse(at))).toBe(false);
    expect(buyerMayDispute('not a date', Date.parse(at))).toBe(false);
  });
});
