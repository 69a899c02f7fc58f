import { useTranslation } from 'react-i18next';
import s from '../trade.module.css';

/** The three detail/history types of SPEC §2 /view_details. */
export type DetailType = 'purchase' | 'sell-register' | 'sell-history';

/**
 * The i18n key of a status label (SPEC §4): REJECTED reads differently in each list, and the seller's lists
 * say what happened to the sale (판매 완료, 판매 취소), not the buyer's words.
 */
export function statusKey(status: string, type: DetailType): string {
  if (status === 'REJECTED') return `status.REJECTED_${type.replace('-', '_')}`;
  if (type !== 'purchase' && (status === 'COMPLETED' || status === 'CANCELED'))
    return `status.${status}_sell`;
  return `status.${status}`;
}

function toneOf(status: string): string {
  if (status === 'COMPLETED') return s.badgeDone ?? '';
  if (status === 'REJECTED' || status === 'CANCELED' || status === 'EXPIRED') return s.badgeBad ?? '';
  // a paused listing (자리 비움) is neither live nor ended: amber, it waits for the seller to come back
  if (status === 'DISPUTED' || status === 'PAUSED') return s.badgeAlert ?? '';
  if (status === 'CLOSED') return '';
  return s.badgeLive ?? '';
}

/** A listing or buy order status as the labelled badge of SPEC §4. */
export function StatusBadge({ status, type }: { status: string; type: DetailType }) {
  const { t } = useTranslation('trade');
  return (
    <span className={`${s.badge} ${toneOf(status)}`} data-testid="status-badge" data-status={status}>
      {t(statusKey(status, type))}
    </span>
  );
}
