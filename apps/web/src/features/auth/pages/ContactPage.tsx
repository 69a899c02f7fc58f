import { useTranslation } from 'react-i18next';
import { Page } from '../../../components/layout/Page';
import { Card } from '../../../components/ui/Card';
import s from '../auth.module.css';
import { SupportButtons } from '../components/SupportButtons';

/** /contact (SPEC §2): open the support chat app or write an e-mail. */
export default function ContactPage() {
  const { t } = useTranslation('auth');
  return (
    <Page title={t('contact.title')}>
      <div className={s.intro}>
        <h2 className={s.heading}>{t('contact.heading')}</h2>
        <p className={s.sub}>{t('contact.sub')}</p>
      </div>
      <Card>
        <p style={{ margin: '0 0 8px', fontSize: 14 }}>{t('support.hours')}</p>
        <SupportButtons />
      </Card>
    </Page>
  );
}
