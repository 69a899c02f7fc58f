import { zodResolver } from '@hookform/resolvers/zod';
import { type CountryCode, fromE164, LIMITS, toE164 } from '@p2p/contract';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../../components/layout/Page';
import { PhoneVerificationFields } from '../../../components/phone/PhoneVerificationFields';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { PasswordField } from '../../../components/ui/PasswordField';
import { SelectField } from '../../../components/ui/SelectField';
import { StickyCta } from '../../../components/ui/StickyCta';
import { TextField } from '../../../components/ui/TextField';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { accountDigitsHint, BANKS, bankChoiceOf, bankNameOf, OTHER_BANK } from '../../../lib/banks';
import { fieldText } from '../../../lib/errors';
import { phoneError } from '../../../lib/field-rules';
import { type Profile, useMe } from '../../../lib/me';
import { notifyRefusal } from '../../../lib/refusal';
import { notify } from '../../../lib/toast';
import { usePhoneVerification } from '../../../lib/use-phone-verification';
import s from '../account.module.css';
import { useUpdateMe } from '../api/update-me';
import { type ModifyValues, modifySchema, needsCurrentPassword } from '../modify-rules';

function valuesOf(p: Profile | undefined): ModifyValues {
  const phone = p ? fromE164(p.phoneE164) : null;
  const { bank, customBank } = bankChoiceOf(p?.bankName);
  return {
    nickname: p?.nickname ?? '',
    password: '',
    passwordConfirm: '',
    countryCode: phone?.countryCode ?? '82',
    phone: phone?.local ?? '',
    code: '',
    phoneVerified: false,
    bank,
    customBank,
    accountNo: p?.accountNo ?? '',
    currentPassword: '',
  };
}

/** /modify (SPEC §5 Modify): name and login id disabled; phone re-verification; success goes to /account. */
export default function ModifyPage() {
  const { t } = useTranslation(['account', 'common']);
  const navigate = useNavigate();
  const me = useMe().data;
  const update = useUpdateMe();
  const verification = usePhoneVerification(LIMITS.smsCodeTtlSec);
  const form = useForm<ModifyValues>({
    resolver: zodResolver(modifySchema),
    mode: 'onChange',
    defaultValues: valuesOf(me),
  });
  const { register, setValue, watch, trigger, formState, reset, setError } = form;
  const v = watch();
  const err = (k: keyof ModifyValues) => fieldText(formState.errors[k]?.message);
  // DECISIONS §13: a new password, phone or bank account needs the current password; the field shows then.
  const askCurrent = needsCurrentPassword(v, me);

  useEffect(() => {
    if (me && !formState.isDirty) reset(valuesOf(me));
  }, [me, reset, formState.isDirty]);

  const resetPhone = () => {
    verification.reset();
    setValue('phoneVerified', false);
  };
  const send = async () => {
    const phone = toE164(v.countryCode, v.phone);
    if (phoneError(v.countryCode, v.phone) || !phone) return void trigger('phone');
    await verification.send(phone);
  };
  const verify = async () => {
    const phone = toE164(v.countryCode, v.phone);
    if (!phone || !v.code.trim()) return void trigger('code');
    if (await verification.verify(phone, v.code)) {
      setValue('phoneVerified', true);
      await trigger('code');
    }
  };

  const onValid = async (values: ModifyValues) => {
    const phoneE164 = toE164(values.countryCode, values.phone);
    if (!phoneE164) return;
    const needed = needsCurrentPassword(values, me);
    if (needed && !values.currentPassword) {
      setError('currentPassword', { message: t('account:modify.currentPasswordRequired') });
      return;
    }
    try {
      await update.mutateAsync({
        nickName: values.nickname.trim(),
        password: values.password || undefined,
        currentPassword: needed ? values.currentPassword : undefined,
        countryCode: values.countryCode,
        phoneE164,
        bankName: bankNameOf(values.bank, values.customBank),
        accountNo: values.accountNo.trim(),
      });
    } catch (e) {
      if (e instanceof ApiError && e.code === 'INVALID_CREDENTIALS') {
        // shown under the field; not toasted again
        setError('currentPassword', { message: t('account:modify.currentPasswordWrong') });
        return;
      }
      notifyRefusal(e, 'account:modify.failed');
      return;
    }
    notify.success(t('account:modify.done'));
    navigate(paths.account.path, { replace: true });
  };

  const bankOptions = [
    ...BANKS.map((b) => ({ value: b, label: b })),
    { value: OTHER_BANK, label: t('account:modify.otherBank') },
  ];
  return (
    <Page title={t('account:modify.title')}>
      <Card>
        <form className={s.form} onSubmit={form.handleSubmit(onValid)} noValidate>
          <TextField label={t('account:fields.name')} value={me?.name ?? ''} disabled readOnly />
          <TextField label={t('account:fields.loginId')} value={me?.loginId ?? ''} disabled readOnly />
          <TextField label={t('account:fields.nickname')} {...register('nickname')} error={err('nickname')} />
          <PasswordField
            label={t('account:fields.newPassword')}
            autoComplete="new-password"
            placeholder={t('account:modify.passwordPlaceholder')}
            {...register('password', { deps: ['passwordConfirm'] })}
            error={err('password')}
          />
          <PasswordField
            label={t('account:fields.passwordConfirm')}
            autoComplete="new-password"
            {...register('passwordConfirm')}
            error={err('passwordConfirm')}
          />
          <PhoneVerificationFields
            countryCode={v.countryCode}
            onCountryChange={(c: CountryCode) => {
              resetPhone();
              setValue('countryCode', c, { shouldValidate: true, shouldDirty: true });
              void trigger('phone');
            }}
            phone={v.phone}
            onPhoneChange={(phone) => {
              resetPhone();
              setValue('phone', phone, { shouldValidate: true, shouldDirty: true });
            }}
            phoneError={err('phone')}
            code={v.code}
            onCodeChange={(code) => setValue('code', code, { shouldValidate: true, shouldDirty: true })}
            codeError={verification.verified ? undefined : err('code')}
            verification={verification}
            onSend={() => void send()}
            onVerify={() => void verify()}
          />
          <SelectField
            label={t('account:fields.bankName')}
            placeholder={t('account:modify.chooseBank')}
            options={bankOptions}
            {...register('bank', { deps: ['customBank'] })}
            error={err('bank')}
            data-testid="bank-select"
          />
          {v.bank === OTHER_BANK && (
            <TextField
              label={t('account:fields.customBank')}
              placeholder={t('account:modify.customBankPlaceholder')}
              {...register('customBank')}
              error={err('customBank')}
            />
          )}
          <TextField
            label={t('account:fields.accountNo')}
            inputMode="numeric"
            placeholder={t('account:modify.accountNoPlaceholder')}
            {...register('accountNo')}
            error={err('accountNo')}
            hint={`${t('account:modify.ownName')} ${v.bank ? accountDigitsHint(bankNameOf(v.bank, v.customBank)) : ''}`}
          />
          {askCurrent && (
            <PasswordField
              label={t('account:modify.currentPassword')}
              autoComplete="current-password"
              {...register('currentPassword')}
              error={formState.errors.currentPassword?.message}
              hint={t('account:modify.currentPasswordHint')}
              data-testid="modify-current-password"
            />
          )}
          <StickyCta onCard>
            <Button type="submit" block disabled={update.isPending} data-testid="modify-submit">
              {update.isPending ? t('account:modify.saving') : t('account:modify.save')}
            </Button>
          </StickyCta>
        </form>
      </Card>
    </Page>
  );
}
