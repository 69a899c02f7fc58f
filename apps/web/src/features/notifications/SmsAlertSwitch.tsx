import { useTranslation } from 'react-i18next';
import { Card } from '../../components/ui/Card';
import { errorText } from '../../lib/errors';
import { notify } from '../../lib/toast';
import { useNotificationSettings, useSaveNotificationSettings } from './api';
import n from './notifications.module.css';

/**
 * The SMS alert switch of /account (DECISIONS §12): order requested, payment sent, completed and expired
 * go out by SMS while it is on (the default).
 */
export function SmsAlertSwitch() {
  const { t } = useTranslation();
  const settings = useNotificationSettings();
  const save = useSaveNotificationSettings();
  const on = settings.data?.smsAlerts ?? true;
  return (
    <Card className={n.item}>
      <label className={n.switchRow}>
        <span>{t('common:notifications.smsAlerts')}</span>
        <input
          type="checkbox"
          role="switch"
          checked={on}
          disabled={!settings.isSuccess || save.isPending}
          aria-checked={on}
          data-testid="sms-alerts"
          onChange={(e) =>
            save.mutate(
              { smsAlerts: e.target.checked },
              { onError: (err) => notify.error(errorText(err, 'common:errors.INTERNAL_ERROR')) },
            )
          }
        />
      </label>
      <p className={n.hint}>{t('common:notifications.smsAlertsHint')}</p>
    </Card>
  );
}
