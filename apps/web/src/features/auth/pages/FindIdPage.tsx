import { useTranslation } from 'react-i18next';
import { Page } from '../../../components/layout/Page';
import { Card } from '../../../components/ui/Card';
import s from '../auth.module.css';
import { SupportButtons } from '../components/SupportButtons';

/** /findid (SPEC §2): IDs are recovered through customer service only. */
export default function FindIdPage() {
  const { t } = useTranslation('auth');
  return (
    <Page title={t('findId.title')}>
      <div className={s.intro}>
        <h2 className={s.heading}>{t('findId.heading')}</h2>
        <p className={s.sub}>{t('findId.sub')}</p>
      </div>
      <Card>
        <p style={{ margin: '0 0 8px', fontSize: 14 }}>{t('support.hours')}</p>
        <SupportButtons />
      </Card>
    </Page>
  );
}
