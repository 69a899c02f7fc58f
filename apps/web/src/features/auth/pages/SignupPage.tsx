import { zodResolver } from '@hookform/resolvers/zod';
import { type CountryCode, LIMITS, toE164 } from '@p2p/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../../components/layout/Page';
import { PhoneVerificationFields } from '../../../components/phone/PhoneVerificationFields';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { PasswordField } from '../../../components/ui/PasswordField';
import { StickyCta } from '../../../components/ui/StickyCta';
import { TextField } from '../../../components/ui/TextField';
import { paths } from '../../../config/paths';
import { errorText, fieldText } from '../../../lib/errors';
import { useSession } from '../../../lib/session';
import { notify } from '../../../lib/toast';
import { usePhoneVerification } from '../../../lib/use-phone-verification';
import { checkLoginId } from '../api/check-id';
import { checkNickname } from '../api/check-nickname';
import { useSignup } from '../api/signup';
import s from '../auth.module.css';
import { StepHeader } from '../components/StepHeader';
import { loginIdError, nicknameError, phoneError, type SignupValues, signupSchema } from '../signup-rules';

const defaults: SignupValues = {
  name: '',
  loginId: '',
  nickname: '',
  password: '',
  passwordConfirm: '',
  countryCode: '82',
  phone: '',
  code: '',
  idChecked: false,
  nicknameChecked: false,
  phoneVerified: false,
};

/** /signup, step 2 (SPEC §2, §4, §5): live validation, availability checks, phone code, then /complete. */
export default function SignupPage() {
  const { t } = useTranslation(['auth', 'common']);
  const navigate = useNavigate();
  const signupMutation = useSignup();
  const verification = usePhoneVerification(LIMITS.smsCodeTtlSec);
  const [checking, setChecking] = useState<'id' | 'nickname' | null>(null);
  const form = useForm<SignupValues>({
    resolver: zodResolver(signupSchema),
    mode: 'onChange',
    defaultValues: defaults,
  });
  const { register, setValue, watch, trigger, setError, formState } = form;
  const v = watch();
  const err = (k: keyof SignupValues) => fieldText(formState.errors[k]?.message);

  const check = async (kind: 'id' | 'nickname') => {
    const value = kind === 'id' ? v.loginId : v.nickname;
    const field = kind === 'id' ? 'loginId' : 'nickname';
    if ((kind === 'id' ? loginIdError(value) : nicknameError(value)) !== undefined) {
      await trigger(field);
      if (kind === 'id') notify.error(t('common:fields.ID_UNVERIFIABLE'));
      return;
    }
    setChecking(kind);
    try {
      const available = kind === 'id' ? await checkLoginId(value) : await checkNickname(value.trim());
      if (available) {
        setValue(kind === 'id' ? 'idChecked' : 'nicknameChecked', true);
        await trigger(field);
        notify.success(t(`auth:signup.${kind}Available`));
      } else {
        // shown under the field; not toasted again
        setError(field, { message: kind === 'id' ? 'ID_TAKEN' : 'NICKNAME_TAKEN' });
      }
    } catch (e) {
      notify.error(errorText(e, `auth:signup.${kind}CheckFailed`));
    } finally {
      setChecking(null);
    }
  };

  const e164 = () => toE164(v.countryCode, v.phone);
  const onPhoneChange = (phone: string) => {
    verification.reset();
    setValue('phoneVerified', false);
    setValue('phone', phone, { shouldValidate: true, shouldDirty: true });
  };
  const onCountryChange = (c: CountryCode) => {
    verification.reset();
    setValue('phoneVerified', false);
    setValue('countryCode', c, { shouldValidate: true });
    if (v.phone) void trigger('phone');
  };
  const send = async () => {
    const phone = e164();
    if (phoneError(v.countryCode, v.phone) || !phone) {
      await trigger('phone');
      return;
    }
    await verification.send(phone);
  };
  const verify = async () => {
    const phone = e164();
    if (!v.code.trim() || !phone) {
      await trigger('code');
      return;
    }
    if (await verification.verify(phone, v.code)) {
      setValue('phoneVerified', true);
      await trigger('code');
    }
  };

  const onValid = async (values: SignupValues) => {
    const phoneE164 = toE164(values.countryCode, values.phone);
    if (!phoneE164) return;
    try {
      await signupMutation.mutateAsync({
        loginId: values.loginId,
        password: values.password,
        name: values.name.trim(),
        nickname: values.nickname.trim(),
        countryCode: values.countryCode,
        phoneE164,
      });
    } catch (e) {
      notify.error(errorText(e, 'auth:signup.failed'));
      return;
    }
    useSession.getState().setSignupCompleted(true);
    navigate(paths.complete.path, { replace: true });
  };

  const idHint = v.idChecked ? t('auth:signup.idAvailable') : undefined;
  const nickHint = v.nicknameChecked ? t('auth:signup.nicknameAvailable') : undefined;
  return (
    <Page title={t('auth:signup.title')}>
      <StepHeader step={2} title={t('auth:signup.heading')} />
      <Card>
        <form className={s.form} onSubmit={form.handleSubmit(onValid)} noValidate>
          <TextField
            label={t('auth:fields.name')}
            autoComplete="name"
            {...register('name')}
            error={err('name')}
          />
          <TextField
            label={t('auth:fields.loginId')}
            autoComplete="username"
            placeholder={t('auth:signup.loginIdPlaceholder')}
            {...register('loginId', { onChange: () => setValue('idChecked', false) })}
            error={err('loginId')}
            hint={idHint}
            hintTone="success"
            aside={
              <Button
                variant="secondary"
                size="small"
                onClick={() => void check('id')}
                disabled={checking === 'id'}
                data-testid="check-id"
              >
                {t('auth:signup.check')}
              </Button>
            }
          />
          <TextField
            label={t('auth:fields.nickname')}
            placeholder={t('auth:signup.nicknamePlaceholder')}
            {...register('nickname', { onChange: () => setValue('nicknameChecked', false) })}
            error={err('nickname')}
            hint={nickHint}
            hintTone="success"
            aside={
              <Button
                variant="secondary"
                size="small"
                onClick={() => void check('nickname')}
                disabled={checking === 'nickname'}
                data-testid="check-nickname"
              >
                {t('auth:signup.check')}
              </Button>
            }
          />
          <PasswordField
            label={t('auth:fields.password')}
            autoComplete="new-password"
            placeholder={t('auth:signup.passwordPlaceholder')}
            {...register('password', { deps: ['passwordConfirm'] })}
            error={err('password')}
          />
          <PasswordField
            label={t('auth:fields.passwordConfirm')}
            autoComplete="new-password"
            {...register('passwordConfirm')}
            error={err('passwordConfirm')}
          />
          <PhoneVerificationFields
            countryCode={v.countryCode}
            onCountryChange={onCountryChange}
            phone={v.phone}
            onPhoneChange={onPhoneChange}
            phoneError={err('phone')}
            code={v.code}
            onCodeChange={(code) => setValue('code', code, { shouldValidate: true })}
            codeError={verification.verified ? undefined : err('code')}
            verification={verification}
            onSend={() => void send()}
            onVerify={() => void verify()}
          />
          <StickyCta onCard>
            <Button type="submit" block disabled={signupMutation.isPending} data-testid="signup-submit">
              {signupMutation.isPending ? t('auth:signup.submitting') : t('auth:signup.submit')}
            </Button>
          </StickyCta>
        </form>
      </Card>
    </Page>
  );
}
