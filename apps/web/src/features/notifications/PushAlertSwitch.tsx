import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/errors';
import { notify } from '../../lib/toast';
import n from './notifications.module.css';
import { currentSubscription, disablePush, enablePush, pushSupported } from './push-subscription';

/** "Push alerts on this device" (DECISIONS §12 Web Push); nothing where the browser cannot receive push. */
export function PushAlertSwitch() {
  const { t } = useTranslation();
  const [on, setOn] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!pushSupported()) return;
    void currentSubscription()
      .then((s) => setOn(s !== null))
      .catch(() => setOn(false));
  }, []);
  if (!pushSupported() || on === null) return null;
  const toggle = async (want: boolean) => {
    setBusy(true);
    try {
      if (want) {
        const granted = await enablePush();
        if (!granted) notify.info(t('common:notifications.pushDenied'));
        setOn(granted);
      } else {
        await disablePush();
        setOn(false);
      }
    } catch (err) {
      notify.error(errorText(err, 'common:errors.INTERNAL_ERROR'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <label className={n.switchRow}>
      <span>{t('common:notifications.pushAlerts')}</span>
      <input
        type="checkbox"
        role="switch"
        checked={on}
        aria-checked={on}
        disabled={busy}
        data-testid="push-alerts"
        onChange={(e) => void toggle(e.target.checked)}
      />
    </label>
  );
}
