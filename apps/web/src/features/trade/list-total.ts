import type { Page } from '@p2p/contract';

/** The translation of a key with values (react-i18next's `t`, narrowed to what listTotal needs). */
type Translate = (key: string, values: Record<string, unknown>) => string;

/**
 * The trade list's "총 N건" (SPEC §2) from its first page: the exact count, or "총 1,000건 이상" / "Total 1,000+"
 * when the API stopped counting at its cap (`totalCapped`, issue 27): the cap is a floor, never the count.
 */
export function listTotal(t: Translate, page: Page<unknown> | undefined): string {
  if (page?.totalCapped) return t('list.totalCapped', { n: page.totalCount.toLocaleString('en-US') });
  return t('list.total', { count: page?.totalCount ?? 0 });
}
