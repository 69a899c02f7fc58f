import { useTranslation } from 'react-i18next';
import btn from '../../../components/ui/ui.module.css';
import { SUPPORT } from '../../../config/support';
import s from '../auth.module.css';

/** The two support channels (SPEC §2 /findid, /contact): the chat app and an e-mail. */
export function SupportButtons() {
  const { t } = useTranslation('auth');
  return (
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
  );
}
