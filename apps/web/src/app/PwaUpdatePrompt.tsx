/// <reference types="vite-plugin-pwa/react" />

import { useRegisterSW } from 'virtual:pwa-register/react';
import { useTranslation } from 'react-i18next';
import s from './pwa.module.css';

/**
 * Registers the service worker (src/sw.ts) and, when a newer version is waiting, asks the member whether to
 * switch now ("새 버전"); the new worker takes over only on that click, then the page reloads.
 */
export function PwaUpdatePrompt() {
  const { t } = useTranslation();
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW();
  if (!needRefresh) return null;
  return (
    <div className={s.prompt} role="alertdialog" aria-labelledby="pwa-new-version" data-testid="pwa-update">
      <p id="pwa-new-version" className={s.text}>
        {t('pwa.newVersion')}
      </p>
      <div className={s.actions}>
        <button type="button" className={s.later} onClick={() => setNeedRefresh(false)}>
          {t('pwa.later')}
        </button>
        <button type="button" className={s.reload} onClick={() => void updateServiceWorker(true)}>
          {t('pwa.reload')}
        </button>
      </div>
    </div>
  );
}
