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
  const switchNow = () => {
    // workbox-window reloads only a page that was already controlled when it loaded; the tab of a first visit
    // (no worker then) would stay on the old version, so the page reloads itself when the new worker takes over.
    navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), {
      once: true,
    });
    void updateServiceWorker(true);
  };
  return (
    <div className={s.prompt} role="alertdialog" aria-labelledby="pwa-new-version" data-testid="pwa-update">
      <p id="pwa-new-version" className={s.text}>
        {t('pwa.newVersion')}
      </p>
      <div className={s.actions}>
        <button type="button" className={s.later} onClick={() => setNeedRefresh(false)}>
          {t('pwa.later')}
        </button>
        <button type="button" className={s.reload} onClick={switchNow}>
          {t('pwa.reload')}
        </button>
      </div>
    </div>
  );
}
