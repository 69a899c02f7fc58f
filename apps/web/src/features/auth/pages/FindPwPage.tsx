import { zodResolver } from '@hookform/resolvers/zod';
import { LIMITS } from '@p2p/contract';
import { type FormEvent, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../../components/layout/Page';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { PasswordField } from '../../../components/ui/PasswordField';
import { TextField } from '../../../components/ui/TextField';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { errorText, fieldText } from '../../../lib/errors';
import { requestSmsCode } from '../../../lib/sms-api';
import { notify } from '../../../lib/toast';
import { formatMmSs, useCountdown } from '../../../lib/use-countdown';
import { findPhone } from '../api/find-phone';
import { resetPassword } from '../api/reset-password';
import { verifyResetCode } from '../api/verify-reset-code';
import s from '../auth.module.css';
import { type FindPwValues, findPwSchema } from '../findpw-rules';

type Step = 'id' | 'code' | 'password';

/**
 * /findpw (SPEC §2, §4): user id -> phone code (30 s countdown) -> new password with confirmation -> /login,
 * each step fading in.
 */
export default function FindPwPage() {
  const { t } = useTranslation(['auth', 'common']);
  const navigate = useNavigate();
  const countdown = useCountdown();
  const [step, setStep] = useState<Step>('id');
  const [busy, setBusy] = useState(false);
  const [maskedPhone, setMaskedPhone] = useState('');
  const [sent, setSent] = useState(false);
  const [ticket, setTicket] = useState('');
  // Field errors only after the first try of the last step, then live (reValidateMode).
  const form = useForm<FindPwValues>({
    resolver: zodResolver(findPwSchema),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    // as before: the messages show without moving focus (no keyboard popping up on a phone)
    shouldFocusError: false,
    defaultValues: { loginId: '', code: '', password: '', confirm: '' },
  });
  const { register, setValue, watch, getValues, formState } = form;
  const code = watch('code');

  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    try {
      await fn();
    } finally {
      setBusy(false);
    }
  };

  const submitId = (e: FormEvent) => {
    e.preventDefault();
    const loginId = getValues('loginId');
    if (!loginId.trim()) return notify.error(t('common:fields.ID_REQUIRED'));
    void run(async () => {
      try {
        setMaskedPhone(await findPhone(loginId.trim()));
        setStep('code');
      } catch (err) {
        const notFound = err instanceof ApiError && err.code === 'NOT_FOUND_MEMBER_ID';
        notify.error(
          notFound ? t('common:errors.NOT_FOUND_MEMBER_ID') : errorText(err, 'auth:findPw.phoneFailed'),
        );
      }
    });
  };

  const sendCode = () =>
    run(async () => {
      try {
        await requestSmsCode({ purpose: 'reset', loginId: getValues('loginId').trim(), phone: maskedPhone });
        setSent(true);
        countdown.start(LIMITS.resetCodeTtlSec);
        notify.success(t('common:phone.sent'));
      } catch (err) {
        notify.error(errorText(err, 'common:phone.sendFailed'));
      }
    });

  const submitCode = (e: FormEvent) => {
    e.preventDefault();
    if (!code.trim()) return notify.error(t('common:fields.CODE_REQUIRED'));
    if (!countdown.running) return notify.error(t('common:errors.CODE_EXPIRED'));
    void run(async () => {
      try {
        const id = getValues('loginId').trim();
        setTicket(await verifyResetCode({ id, code: code.trim(), phone: maskedPhone }));
        countdown.stop();
        notify.success(t('common:phone.confirmed'));
        setStep('password');
      } catch (err) {
        notify.error(errorText(err, 'auth:findPw.verifyFailed'));
      }
    });
  };

  const err = (k: keyof FindPwValues) => fieldText(formState.errors[k]?.message);
  const submitPassword = form.handleSubmit(({ password }) =>
    run(async () => {
      try {
        await resetPassword(ticket, password);
        notify.success(t('auth:findPw.changed'));
        navigate(paths.login.path, { replace: true });
      } catch (err) {
        notify.error(errorText(err, 'auth:findPw.changeFailed'));
      }
    }),
  );

  return (
    <Page title={t('auth:findPw.title')}>
      <div className={s.intro}>
        <div className={s.steps} aria-hidden="true">
          {(['id', 'code', 'password'] as const).map((k, i) => (
            <span
              key={k}
              className={`${s.step} ${i <= ['id', 'code', 'password'].indexOf(step) ? s.stepOn : ''}`}
            />
          ))}
        </div>
        <h2 className={s.heading}>{t(`auth:findPw.${step}Heading`)}</h2>
        <p className={s.sub}>{t(`auth:findPw.${step}Sub`, { phone: maskedPhone })}</p>
      </div>
      <Card key={step} className={s.fade} data-testid={`findpw-step-${step}`}>
        {step === 'id' && (
          <form className={s.form} onSubmit={submitId} noValidate>
            <TextField label={t('auth:fields.loginId')} autoComplete="username" {...register('loginId')} />
            <Button type="submit" block disabled={busy}>
              {t('common:actions.next')}
            </Button>
          </form>
        )}
        {step === 'code' && (
          <form className={s.form} onSubmit={submitCode} noValidate>
            <TextField
              label={t('common:phone.number')}
              value={maskedPhone}
              readOnly
              aside={
                <Button
                  variant="secondary"
                  size="small"
                  onClick={() => void sendCode()}
                  disabled={busy}
                  data-testid="send-code"
                >
                  {sent ? t('common:phone.resend') : t('common:phone.send')}
                </Button>
              }
            />
            <TextField
              label={t('common:phone.code')}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={LIMITS.smsCodeLength}
              value={code}
              onChange={(e) => setValue('code', e.currentTarget.value.replace(/\D/g, ''))}
              aside={
                <span className={s.timer} data-testid="code-timer">
                  {countdown.running ? formatMmSs(countdown.remaining) : ''}
                </span>
              }
            />
            <Button type="submit" block disabled={busy || !sent}>
              {t('common:phone.verify')}
            </Button>
          </form>
        )}
        {step === 'password' && (
          <form className={s.form} onSubmit={submitPassword} noValidate>
            <PasswordField
              label={t('auth:findPw.newPassword')}
              autoComplete="new-password"
              {...register('password', { deps: ['confirm'] })}
              error={err('password')}
            />
            <PasswordField
              label={t('auth:fields.passwordConfirm')}
              autoComplete="new-password"
              {...register('confirm')}
              error={err('confirm')}
            />
            <Button type="submit" block disabled={busy}>
              {t('auth:findPw.change')}
            </Button>
          </form>
        )}
      </Card>
    </Page>
  );
}
