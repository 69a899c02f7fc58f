import { useTranslation } from 'react-i18next';
import s from '../ops.module.css';

const TONE: Record<string, string> = {
  PENDING_REVIEW: 'warn',
  PENDING: 'warn',
  REQUESTED: 'warn',
  PAID: 'info',
  DISPUTED: 'bad',
  EXPIRED: 'muted',
  OPEN: 'info',
  ACTIVE: 'ok',
  COMPLETED: 'ok',
  APPROVED: 'ok',
  PAUSED: 'muted',
  CLOSED: 'muted',
  CANCELED: 'muted',
  REJECTED: 'bad',
  SUSPENDED: 'bad',
  UNMATCHED: 'warn',
  ASSIGNED: 'ok',
  RETURNED: 'muted',
};

/** A status as a coloured pill with its localized name (ops:status.<STATUS>). */
export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation(['ops']);
  const tone = TONE[status] ?? 'muted';
  return (
    <span className={`${s.badge} ${s[`badge_${tone}`] ?? ''}`} data-status={status}>
      {t(`ops:status.${status}`, { defaultValue: status })}
    </span>
  );
}
