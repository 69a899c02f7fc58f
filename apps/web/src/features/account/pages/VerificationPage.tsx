import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { Page } from '../../../components/layout/Page';
import { Card } from '../../../components/ui/Card';
import { LoadError } from '../../../components/ui/LoadError';
import s from '../account.module.css';
import { useBankAccount } from '../api/bank-account';
import { useKyc } from '../api/kyc';
import { BankVerifyCard } from '../components/BankVerifyCard';
import { DocumentCard } from '../components/DocumentCard';
import { IdentityCard } from '../components/IdentityCard';
import { KycLevelCard } from '../components/KycLevelCard';

/**
 * /verification, the 인증 센터 (DECISIONS §19): the member's level, what each level allows and the next step;
 * then each step in its own section, which refusals link to by its id (lib/refusal.tsx): #identity (level 1,
 * the identity provider's code), #document (level 2, the ID document), #bank (the 1원 account check, and
 * changing the account with the step-up), #holds (when bought coins may leave, the Travel Rule).
 */
export default function VerificationPage() {
  const { t } = useTranslation('account');
  const kyc = useKyc();
  const bank = useBankAccount();
  const { hash } = useLocation();
  const loaded = kyc.isSuccess;
  // A refusal's link names a section: bring it into view once the sections are there.
  useEffect(() => {
    if (loaded && hash) document.getElementById(hash.slice(1))?.scrollIntoView({ block: 'start' });
  }, [loaded, hash]);
  if (kyc.isError)
    return (
      <Page title={t('verification.title')}>
        <LoadError
          message={t('verification.loadFailed')}
          onRetry={() => kyc.refetch()}
          retrying={kyc.isFetching}
          failedAt={kyc.errorUpdatedAt}
        />
      </Page>
    );
  if (!kyc.data) return <Page title={t('verification.title')}>{null}</Page>;
  return (
    <Page title={t('verification.title')}>
      <KycLevelCard kyc={kyc.data} bank={bank.data} />
      <h2 id="identity" className={s.sectionTitle}>
        {t('verification.identity.title')}
      </h2>
      <IdentityCard kyc={kyc.data} />
      <h2 id="bank" className={s.sectionTitle}>
        {t('bankVerify.title')}
      </h2>
      <BankVerifyCard />
      <h2 id="document" className={s.sectionTitle}>
        {t('verification.document.title')}
      </h2>
      <DocumentCard kyc={kyc.data} />
      <h2 id="holds" className={s.sectionTitle}>
        {t('verification.holds.title')}
      </h2>
      <Card className={s.rows} data-testid="kyc-holds">
        <p>{t('verification.holds.text')}</p>
        <p>{t('verification.holds.travelRule')}</p>
        <p>{t('verification.holds.ownAccount')}</p>
      </Card>
    </Page>
  );
}
