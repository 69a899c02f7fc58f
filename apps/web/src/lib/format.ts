import { formatKrw, formatQty } from '@p2p/contract/money.ts';

/*
 * Display helpers (SPEC §9). The money arithmetic is the contract's (money.ts), shared with the API; the
 * screens' names for it are kept here so the pages read as before.
 */
export { formatKrw as formatWon, formatQty, smallerQty as minQtyOf } from '@p2p/contract/money.ts';

/**
 * An amount of won read the Korean way, in 만 (10,000) units: 2,010,000 -> 201만원,
 * 12,345,678 -> 1,234만 5,678원; Japanese uses 万 the same way, English a compact form (2.01M KRW).
 * Integers only: the parts are whole-won divisions, never a float of money.
 */
export function formatManwon(krw: number, lang: string): string {
  const man = Math.floor(krw / 10_000);
  const rest = krw % 10_000;
  if (lang === 'kr') return rest ? `${formatKrw(man)}만 ${formatKrw(rest)}원` : `${formatKrw(man)}만원`;
  if (lang === 'jp')
    return rest ? `${formatKrw(man)}万${formatKrw(rest)}ウォン` : `${formatKrw(man)}万ウォン`;
  return `${new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 2 }).format(krw)} KRW`;
}

/**
 * A wallet balance for display (SPEC §9 "wallet balance 4-8"): truncated to 8 decimals and padded to at least
 * 4, so 1 BTC reads 1.0000 and 0.12345678 keeps all its digits. A decimal string in, never a float.
 */
export function formatBalance(qty: string): string {
  const shown = formatQty(qty, 8);
  const [whole, frac = ''] = shown.split('.');
  return `${whole}.${frac.padEnd(4, '0')}`;
}
