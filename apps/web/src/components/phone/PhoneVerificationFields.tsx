import { COUNTRY_CODES, type CountryCode, LIMITS } from '@p2p/contract';
import { useTranslation } from 'react-i18next';
import { formatMmSs } from '../../lib/use-countdown';
import type { usePhoneVerification } from '../../lib/use-phone-verification';
import { Button } from '../ui/Button';
import { SelectField } from '../ui/SelectField';
import { TextField } from '../ui/TextField';
import s from '../ui/ui.module.css';

interface Props {
  countryCode: CountryCode;
  onCountryChange: (c: CountryCode) => void;
  phone: string;
  onPhoneChange: (phone: string) => void;
  phoneError?: string;
  code: string;
  onCodeChange: (code: string) => void;
  codeError?: string;
  verification: ReturnType<typeof usePhoneVerification>;
  onSend: () => void;
  onVerify: () => void;
}

/**
 * Country, phone with 'send code', and code with 'Verify' and the countdown (SPEC §4): once verified the
 * button reads 'Verified' and the phone and country lock; the parent resets verification on phone edits.
 */
export function PhoneVerificationFields(p: Props) {
  const { t } = useTranslation();
  const v = p.verification;
  const locked = v.verified;
  return (
    <>
      <SelectField
        label={t('common:phone.country')}
        name="countryCode"
        value={p.countryCode}
        disabled={locked}
        onChange={(e) => p.onCountryChange(e.target.value as CountryCode)}
        options={COUNTRY_CODES.map((c) => ({ value: c, label: `${t(`common:countries.${c}`)} (+${c})` }))}
      />
      <TextField
        label={t('common:phone.number')}
        name="phone"
        inputMode="tel"
        autoComplete="tel-national"
        placeholder={t('common:phone.numberPlaceholder')}
        value={p.phone}
        readOnly={locked}
        onChange={(e) => p.onPhoneChange(e.target.value)}
        error={p.phoneError}
        aside={
          <Button
            variant="secondary"
            size="small"
            onClick={p.onSend}
            disabled={locked || v.sending}
            data-testid="send-code"
          >
            {v.sent ? t('common:phone.resend') : t('common:phone.send')}
          </Button>
        }
      />
      <TextField
        label={t('common:phone.code')}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={LIMITS.smsCodeLength}
        placeholder={t('common:phone.codePlaceholder')}
        value={p.code}
        readOnly={locked}
        onChange={(e) => p.onCodeChange(e.target.value.replace(/\D/g, ''))}
        error={p.codeError}
        hint={locked ? t('common:phone.confirmed') : undefined}
        hintTone="success"
        aside={
          <>
            <span className={s.timer} aria-live="off" data-testid="code-timer">
              {v.running ? formatMmSs(v.remaining) : ''}
            </span>
            <Button
              variant={locked ? 'outline' : 'primary'}
              className={locked ? s.done : undefined}
              size="small"
              onClick={p.onVerify}
              disabled={locked || v.verifying || !v.sent}
              data-testid="verify-code"
            >
              {locked ? t('common:phone.verified') : t('common:phone.verify')}
            </Button>
          </>
        }
      />
    </>
  );
}
