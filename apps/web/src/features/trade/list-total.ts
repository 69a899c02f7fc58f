import type { Page } from '@p2p/contract';

/** The translation of a key with values (react-i18next's `t`, narrowed to what listTotal needs). */
type Translate = (key: string, values: Record<string, unknown>) => string;

/**
 * The trade list's "총 N건" (SPEC §2) from its first page, N with thousands separators ("총 5,054건": the API
 * answers the exact count from its kept counts, issue 27), or "총 1,000건 이상" / "Total 1,000+" when an API
 * stopped counting at a cap (`totalCapped`): the cap is a floor, never the count.
 */
export function listTotal(t: Translate, page: Page<unknown> | undefined): string {
  const n = (page?.totalCount ?? 0).toLocaleString('en-US');
  return page?.totalCapped
    ? t('list.totalCapped', { n })
    : t('list.total', { count: page?.totalCount ?? 0, n });
}
