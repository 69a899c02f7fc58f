import { useTranslation } from 'react-i18next';
import { Page } from '../../../components/layout/Page';
import { Card } from '../../../components/ui/Card';
import btn from '../../../components/ui/ui.module.css';
import { SUPPORT } from '../../../config/support';
import s from '../auth.module.css';

/**
 * The support screen of /findid and /contact (SPEC §2): the page's title, heading and line from its own texts
 * (`auth:findId.*`, `auth:contact.*`), the support hours, then the two channels: the chat app and an e-mail.
 */
export function SupportPage({ texts }: { texts: 'findId' | 'contact' }) {
  const { t } = useTranslation('auth');
  return (
    <Page title={t(`${texts}.title`)}>
      <div className={s.intro}>
        <h2 className={s.heading}>{t(`${texts}.heading`)}</h2>
        <p className={s.sub}>{t(`${texts}.sub`)}</p>
      </div>
      <Card>
        <p className={s.supportHours}>{t('support.hours')}</p>
        <div className={s.actions}>
          <a
            className={`${btn.button} ${btn.primary} ${btn.block}`}
            href={SUPPORT.chatUrl}
            target="_blank"
            rel="noreferrer"
            data-testid="support-chat"
          >
            {t('support.chat')}
          </a>
          <a
            className={`${btn.button} ${btn.outline} ${btn.block}`}
            href={`mailto:${SUPPORT.email}`}
            data-testid="support-email"
          >
            {t('support.email')}
          </a>
        </div>
      </Card>
    </Page>
  );
}
