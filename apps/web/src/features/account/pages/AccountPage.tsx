import { formatPhone } from '@p2p/contract';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../../components/layout/Page';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { paths } from '../../../config/paths';
import { useMe } from '../../../lib/me';
import { SmsAlertSwitch } from '../../notifications/SmsAlertSwitch';
import s from '../account.module.css';
import { BlockedMembers } from '../components/BlockedMembers';
import { CloseMembership } from '../components/CloseMembership';
import { CountryLabel } from '../components/CountryLabel';
import { LoginHistory } from '../components/LoginHistory';
import { VerificationEntry } from '../components/VerificationEntry';

function Row({ label, value, testId }: { label: string; value: React.ReactNode; testId?: string }) {
  return (
    <div className={s.row}>
      <span className={s.rowLabel}>{label}</span>
      <span className={s.rowValue} data-testid={testId}>
        {value}
      </span>
    </div>
  );
}

/**
 * /account (SPEC §2): the read-only profile with the phone formatted; the token is re-validated by GET /my.
 * Below it (DECISIONS §19): the way to the verification center (the 1원 check lives there), the members the member blocks, the login history and closing the membership.
 * An invalid token ends the session (the guard then shows 'authentication expired, log in again' on /login);
 * any other failure says 'failed to load user info' with a retry (SPEC §8).
 */
export default function AccountPage() {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const me = useMe({ fresh: true });
  const p = me.data;

  if (me.isError) {
    return (
      <Page title={t('account.title')} tabs>
        <Card className={s.center}>
          <p style={{ margin: 0 }} role="alert">
            {t('common:auth.profileFailed')}
          </p>
          <Button onClick={() => void me.refetch()}>{t('common:actions.retry')}</Button>
        </Card>
      </Page>
    );
  }
  const empty = t('account.notSet');
  return (
    <Page title={t('account.title')} tabs>
      <h2 className={s.sectionTitle}>{t('account.profile')}</h2>
      <Card className={s.rows}>
        <Row label={t('fields.loginId')} value={p?.loginId} testId="acc-login-id" />
        <Row label={t('fields.nickname')} value={p?.nickname} testId="acc-nickname" />
        <Row
          label={t('fields.nationality')}
          value={p ? <CountryLabel countryCode={p.countryCode} /> : null}
        />
        <Row label={t('fields.phone')} value={p ? formatPhone(p.phoneE164) : null} testId="acc-phone" />
      </Card>
      <h2 className={s.sectionTitle}>{t('account.bank')}</h2>
      <Card className={s.rows}>
        <Row label={t('fields.holder')} value={p?.name} testId="acc-holder" />
        <Row label={t('fields.bankName')} value={p?.bankName || empty} testId="acc-bank" />
        <Row label={t('fields.accountNo')} value={p?.accountNo || empty} testId="acc-account-no" />
      </Card>
      <h2 className={s.sectionTitle}>{t('verification.title')}</h2>
      <VerificationEntry />
      <h2 className={s.sectionTitle}>{t('common:notifications.title')}</h2>
      <SmsAlertSwitch />
      <Button block onClick={() => navigate(paths.modify.path)} data-testid="to-modify">
        {t('account.modify')}
      </Button>
      <h2 id="blocks" className={s.sectionTitle}>
        {t('blocks.title')}
      </h2>
      <BlockedMembers />
      <h2 className={s.sectionTitle}>{t('logins.title')}</h2>
      <LoginHistory />
      <CloseMembership />
    </Page>
  );
}
