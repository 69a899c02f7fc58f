import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../../components/layout/Page';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { type LegalDoc, TermsModal } from '../../../components/ui/TermsModal';
import { paths } from '../../../config/paths';
import { useSession } from '../../../lib/session';
import s from '../auth.module.css';
import { StepHeader } from '../components/StepHeader';

/** /agreement, signup step 1 (SPEC §2, §4): both consents are required; each has a view button. */
export default function AgreementPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const saved = useSession((st) => st.agreements);
  const [service, setService] = useState(saved.service);
  const [privacy, setPrivacy] = useState(saved.privacy);
  const [doc, setDoc] = useState<LegalDoc | null>(null);
  const [error, setError] = useState(false);

  const setAll = (on: boolean) => {
    setService(on);
    setPrivacy(on);
    if (on) setError(false);
  };
  const next = () => {
    if (!service || !privacy) {
      setError(true);
      return;
    }
    useSession.getState().setAgreements({ service, privacy });
    navigate(paths.signup.path);
  };

  const rows = [
    { key: 'terms' as const, checked: service, set: setService, label: t('agreement.service') },
    { key: 'privacy' as const, checked: privacy, set: setPrivacy, label: t('agreement.privacy') },
  ];
  return (
    <Page title={t('signup.title')}>
      <StepHeader step={1} title={t('agreement.heading')} />
      <Card style={{ padding: 0 }}>
        <div className={s.consent}>
          <label className={s.consentLabel}>
            <input
              type="checkbox"
              className={s.checkbox}
              checked={service && privacy}
              onChange={(e) => setAll(e.target.checked)}
              data-testid="agree-all"
            />
            {t('agreement.all')}
          </label>
        </div>
        {rows.map((r) => (
          <div className={s.consent} key={r.key}>
            <label className={s.consentLabel}>
              <input
                type="checkbox"
                className={s.checkbox}
                checked={r.checked}
                onChange={(e) => {
                  r.set(e.target.checked);
                  setError(false);
                }}
                data-testid={`agree-${r.key}`}
              />
              <span>
                <span className={s.required}>{t('agreement.required')}</span>
                {r.label}
              </span>
            </label>
            <Button variant="ghost" size="small" onClick={() => setDoc(r.key)} data-testid={`view-${r.key}`}>
              {t('common:actions.view')}
            </Button>
          </div>
        ))}
      </Card>
      <p className={s.errorText} role={error ? 'alert' : undefined} data-testid="agreement-error">
        {error ? t('agreement.requiredError') : ''}
      </p>
      <Button block onClick={next} data-testid="agreement-next">
        {t('common:actions.next')}
      </Button>
      <TermsModal doc={doc} onClose={() => setDoc(null)} />
    </Page>
  );
}
