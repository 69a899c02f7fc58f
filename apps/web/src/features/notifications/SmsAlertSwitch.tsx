import { useTranslation } from 'react-i18next';
import { Card } from '../../components/ui/Card';
import { errorText } from '../../lib/errors';
import { notify } from '../../lib/toast';
import { useNotificationSettings, useSaveNotificationSettings } from './api';
import n from './notifications.module.css';
import { PushAlertSwitch } from './PushAlertSwitch';

/**
 * The alert switches of /account (DECISIONS §12): SMS for order requested, payment sent, completed and
 * expired while it is on (the default), and Web Push on this device where the browser supports it.
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
      <PushAlertSwitch />
    </Card>
  );
}
