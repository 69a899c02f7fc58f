import { describe, expect, it } from 'vitest';
import en from '../../i18n/locales/en/trade.json';
import jp from '../../i18n/locales/jp/trade.json';
import kr from '../../i18n/locales/kr/trade.json';
import { listTotal } from './list-total';

/** A stand-in for i18next's `t` over one locale's `list` texts: `{{name}}` filled from the values. */
const tOf =
  (texts: { list: Record<string, unknown> }) =>
  (key: string, values: Record<string, unknown>): string =>
    String(texts.list[key.replace('list.', '')]).replace(/\{\{(\w+)\}\}/g, (_, k: string) =>
      String(values[k]),
    );

describe('listTotal (issue 27: the trade list total, exact or a floor)', () => {
  it('shows the exact count, or the cap as a floor when the API stopped counting', () => {
    const exact = { list: [], nextCursor: null, totalCount: 45 };
    const capped = { list: [], nextCursor: 'c', totalCount: 1000, totalCapped: true };
    expect(listTotal(tOf(kr), exact)).toBe('총 45건');
    expect(listTotal(tOf(en), exact)).toBe('Total 45');
    const many = { list: [], nextCursor: 'c', totalCount: 5054 };
    expect(listTotal(tOf(kr), many)).toBe('총 5,054건');
    expect(listTotal(tOf(en), many)).toBe('Total 5,054');
    expect(listTotal(tOf(jp), many)).toBe('全5,054件');
    expect(listTotal(tOf(kr), capped)).toBe('총 1,000건 이상');
    expect(listTotal(tOf(en), capped)).toBe('Total 1,000+');
    expect(listTotal(tOf(jp), capped)).toBe('全1,000件以上');
    expect(listTotal(tOf(en), undefined)).toBe('Total 0');
  });
});
