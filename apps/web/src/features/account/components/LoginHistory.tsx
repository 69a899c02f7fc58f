import type { LoginRecord } from '@p2p/contract';
import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/ui/Card';
import { formatDateTime } from '../../../lib/format-time';
import s from '../account.module.css';
import { useLoginHistory } from '../api/records';

/** At most this many attempts show at first; the rest behind "show all" (a phone screen, not a log viewer). */
const FIRST = 10;

function deviceText(d: LoginRecord['device'], unknown: string): string {
  const parts = [d.browser, d.os].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : unknown;
}

/**
 * The login history of /account (DECISIONS §19): the last 90 days' sign-in attempts, newest first, with the
 * time, the device, the address with its last part masked and the result; a failure or lock stands out.
 */
export function LoginHistory() {
  const { t } = useTranslation('account');
  const q = useLoginHistory();
  const items = (q.data?.items ?? []).slice(0, FIRST);
  return (
    <Card className={s.rows} data-testid="login-history">
      {items.length === 0 && <p className={s.hint}>{q.isError ? t('logins.failed') : t('logins.empty')}</p>}
      {items.map((l) => (
        <div className={s.row} key={`${l.at}-${l.ip}-${l.result}`}>
          <span>
            <span className={s.strong}>{formatDateTime(l.at)}</span>
            <span className={s.sub}>
              {deviceText(l.device, t('logins.unknownDevice'))} · {l.ip}
            </span>
          </span>
          <span className={l.result === 'OK' ? s.ok : s.bad} data-testid="login-result">
            {t(`logins.result.${l.result}`)}
          </span>
        </div>
      ))}
      <p className={s.hint}>{t('logins.hint', { days: q.data?.days ?? 90 })}</p>
    </Card>
  );
}
