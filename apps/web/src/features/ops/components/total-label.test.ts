import { describe, expect, it } from 'vitest';
import { totalLabel } from './Table';

describe('totalLabel (issue 27: capped totals)', () => {
  it('shows the count, or the cap with a plus when the API stopped counting', () => {
    expect(totalLabel(undefined)).toBe('0');
    expect(totalLabel({ list: [], nextCursor: null, totalCount: 22 })).toBe('22');
    expect(totalLabel({ list: [], nextCursor: null, totalCount: 10_000 })).toBe('10,000');
    expect(totalLabel({ list: [], nextCursor: 'c', totalCount: 10_000, totalCapped: true })).toBe('10,000+');
  });
});
