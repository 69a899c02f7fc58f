import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../../components/layout/Page';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { paths } from '../../../config/paths';
import s from '../auth.module.css';
import { StepHeader } from '../components/StepHeader';

/**
 * /complete, signup step 3 of 3 (SPEC §2): login or main; browser back goes home. The signup flags are
 * reset by the root layout once another route is shown.
 */
export default function CompletePage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();

  useEffect(() => {
    const onPop = () => navigate(paths.home.path, { replace: true });
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [navigate]);

  const go = (to: string) => navigate(to, { replace: true });

  return (
    <Page title={t('signup.title')} close>
      <StepHeader step={3} title={t('complete.heading')} />
      <Card className={s.center}>
        <div className={s.bigIcon} aria-hidden="true">
          <svg
            width="36"
            height="36"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2.5"
            aria-hidden="true"
          >
            <path d="M5 12l5 5 9-10" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </div>
        <p style={{ margin: 0, fontWeight: 700, fontSize: 18 }}>{t('complete.title')}</p>
        <p style={{ margin: 0, color: 'var(--color-muted)', fontSize: 14 }}>{t('complete.sub')}</p>
      </Card>
      <div className={s.actions}>
        <Button block onClick={() => go(paths.login.path)} data-testid="complete-login">
          {t('complete.login')}
        </Button>
        <Button block variant="outline" onClick={() => go(paths.home.path)}>
          {t('complete.main')}
        </Button>
      </div>
    </Page>
  );
}
