import type { KycStatus } from '@p2p/contract';
import { LIMITS } from '@p2p/contract/limits.ts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { TextField } from '../../../components/ui/TextField';
import { useMe } from '../../../lib/me';
import s from '../account.module.css';
import { requestIdentity, verifyIdentity } from '../api/kyc';
import { useKycRun } from '../hooks/use-kyc-run';

/**
 * Level 1 (DECISIONS §19): the name (the member's own, which the provider must report) and birth date go to
 * the identity provider, which sends a code to the member's phone; the code verifies. A wrong code leaves
 * the tries to the server (5, then a new request).
 */
export function IdentityCard({ kyc }: { kyc: KycStatus }) {
  const { t } = useTranslation('account');
  const me = useMe().data;
  const [name, setName] = useState<string | null>(null);
  const [birthDate, setBirthDate] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { busy, run } = useKycRun();
  if (kyc.level >= 1) {
    return (
      <Card data-testid="kyc-identity">
        <p data-testid="kyc-identity-done">
          {t('verification.identity.done', { name: kyc.verifiedName ?? '' })}
        </p>
      </Card>
    );
  }
  const typedName = name ?? me?.name ?? '';
  const ask = () =>
    run(async () => {
      const out = await requestIdentity({ name: typedName, birthDate });
      setSentTo(out.phone);
    }, t('verification.identity.sent'));
  return (
    <Card className={s.rows} data-testid="kyc-identity">
      <p className={s.muted}>{t('verification.identity.intro')}</p>
      <TextField
        label={t('verification.identity.name')}
        value={typedName}
        onChange={(e) => setName(e.currentTarget.value)}
        hint={t('verification.identity.nameHint')}
        data-testid="kyc-name"
      />
      <TextField
        label={t('verification.identity.birthDate')}
        type="date"
        value={birthDate}
        onChange={(e) => setBirthDate(e.currentTarget.value)}
        data-testid="kyc-birth-date"
      />
      <Button
        variant="secondary"
        block
        disabled={busy || !typedName.trim() || !birthDate}
        onClick={ask}
        data-testid="kyc-identity-request"
      >
        {t(sentTo ? 'verification.identity.resend' : 'verification.identity.request')}
      </Button>
      {sentTo ? <CodeStep phone={sentTo} /> : null}
    </Card>
  );
}

/** The code the provider sent to `phone`, and the verification that raises the member to level 1. */
function CodeStep({ phone }: { phone: string }) {
  const { t } = useTranslation('account');
  const [code, setCode] = useState('');
  const { busy, run } = useKycRun();
  return (
    <>
      <p data-testid="kyc-identity-sent">{t('verification.identity.sentTo', { phone })}</p>
      <TextField
        label={t('verification.identity.code')}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={LIMITS.smsCodeLength}
        value={code}
        onChange={(e) => setCode(e.currentTarget.value.replace(/\D/g, ''))}
        data-testid="kyc-code"
      />
      <Button
        block
        disabled={busy || code.length !== LIMITS.smsCodeLength}
        onClick={() => run(() => verifyIdentity(code), t('verification.identity.verified'))}
        data-testid="kyc-identity-verify"
      >
        {t('verification.identity.verify')}
      </Button>
    </>
  );
}
