import type { BankVerifyRequestOut } from '@p2p/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { PasswordField } from '../../../components/ui/PasswordField';
import { TextField } from '../../../components/ui/TextField';
import { meQueryOptions } from '../../../lib/me';
import { notifyRefusal } from '../../../lib/refusal';
import { notify } from '../../../lib/toast';
import s from '../account.module.css';
import {
  bankAccountQueryOptions,
  requestBankCode,
  useBankAccount,
  verifyBankCode,
} from '../api/bank-account';

/**
 * 1원 인증 (DECISIONS §19): bank and account number -> the bank sends 1 KRW whose depositor name carries a
 * 4-digit code -> the member types the code -> the account is verified (the holder must be the member's
 * verified name). A change of a verified account asks for the password (the step-up, DECISIONS §13).
 */
export function BankVerifyCard() {
  const { t } = useTranslation('account');
  const state = useBankAccount().data;
  const [bankName, setBankName] = useState('');
  const [accountNo, setAccountNo] = useState('');
  const [password, setPassword] = useState('');
  const { busy, run } = useRun();
  const verified = state?.verified ?? null;
  const pending = state?.pending ?? null;
  const ask = () =>
    run(
      () => requestBankCode({ bankName, accountNo, ...(verified ? { stepUp: { password } } : {}) }),
      t('bankVerify.sent'),
    );
  return (
    <Card className={s.rows} data-testid="bank-verify">
      <p data-testid="bank-verify-status">
        {verified
          ? t('bankVerify.verified', {
              bank: verified.bankName,
              account: verified.accountNo,
              holder: verified.holderName,
            })
          : t('bankVerify.none')}
      </p>
      {pending ? (
        <CodeStep
          pending={pending}
          busy={busy}
          onVerify={(code) => run(() => verifyBankCode(code), t('bankVerify.done'))}
        />
      ) : null}
      <TextField
        label={t('fields.bankName')}
        value={bankName}
        onChange={(e) => setBankName(e.currentTarget.value)}
        data-testid="bank-verify-bank"
      />
      <TextField
        label={t('fields.accountNo')}
        inputMode="numeric"
        value={accountNo}
        onChange={(e) => setAccountNo(e.currentTarget.value.replace(/\D/g, ''))}
        data-testid="bank-verify-account"
      />
      {verified ? (
        <PasswordField
          label={t('bankVerify.password')}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          data-testid="bank-verify-password"
        />
      ) : null}
      <Button
        variant="secondary"
        block
        disabled={busy || !bankName || !accountNo || (verified !== null && !password)}
        onClick={ask}
        data-testid="bank-verify-request"
      >
        {t(verified ? 'bankVerify.change' : 'bankVerify.request')}
      </Button>
    </Card>
  );
}

/** The code step: the 4 digits after "P2P" in the 1 KRW deposit's depositor name, and the tries left. */
function CodeStep({
  pending,
  busy,
  onVerify,
}: {
  pending: BankVerifyRequestOut;
  busy: boolean;
  onVerify: (code: string) => Promise<void>;
}) {
  const { t } = useTranslation('account');
  const [code, setCode] = useState('');
  return (
    <>
      <p>{t('bankVerify.pending', { bank: pending.bankName, account: pending.accountNo })}</p>
      <TextField
        label={t('bankVerify.code')}
        inputMode="numeric"
        maxLength={4}
        value={code}
        onChange={(e) => setCode(e.currentTarget.value.replace(/\D/g, ''))}
        hint={t('bankVerify.codeHint', { tries: pending.triesLeft })}
        data-testid="bank-verify-code"
      />
      <Button
        block
        disabled={busy || code.length !== 4}
        onClick={() => void onVerify(code).then(() => setCode(''))}
        data-testid="bank-verify-submit"
      >
        {t('bankVerify.submit')}
      </Button>
    </>
  );
}

/** One action at a time with its toast, then the bank state and the profile refetched. */
function useRun() {
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  const refresh = () =>
    Promise.all([qc.invalidateQueries(bankAccountQueryOptions()), qc.invalidateQueries(meQueryOptions())]);
  const run = async (f: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await f();
      notify.success(done);
      await refresh();
    } catch (err) {
      notifyRefusal(err, 'common:errors.INTERNAL_ERROR');
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}
