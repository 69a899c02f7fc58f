import { describe, expect, it } from 'vitest';
import { BANKS, bankChoiceOf, bankNameOf, OTHER_BANK } from './banks';

describe('bank list (SPEC §3)', () => {
  it('has 44 distinct banks, without the other choice', () => {
    expect(BANKS).toHaveLength(44);
    expect(new Set(BANKS).size).toBe(44);
    expect(BANKS).not.toContain(OTHER_BANK);
  });
  it('maps stored names to the select and back', () => {
    expect(bankChoiceOf('신한은행')).toEqual({ bank: '신한은행', customBank: '' });
    expect(bankChoiceOf('My Local Bank')).toEqual({ bank: OTHER_BANK, customBank: 'My Local Bank' });
    expect(bankChoiceOf(null)).toEqual({ bank: '', customBank: '' });
    expect(bankNameOf(OTHER_BANK, '  My Local Bank ')).toBe('My Local Bank');
    expect(bankNameOf('신한은행', 'ignored')).toBe('신한은행');
  });
});
