import { zodResolver } from '@hookform/resolvers/zod';
import { type DestType, fromUnits, type StepUp, toUnits } from '@p2p/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { Page } from '../../../components/layout/Page';
import { AddressField } from '../../../components/ui/AddressField';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { KeyValue, KeyValueList } from '../../../components/ui/KeyValue';
import { Modal } from '../../../components/ui/Modal';
import { PasswordField } from '../../../components/ui/PasswordField';
import { SegmentedControl } from '../../../components/ui/SegmentedControl';
import { StickyCta } from '../../../components/ui/StickyCta';
import { TextField } from '../../../components/ui/TextField';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { errorText, fieldText } from '../../../lib/errors';
import { formatQty } from '../../../lib/format';
import { notify } from '../../../lib/toast';
import { useWallets } from '../api/get-wallets';
import { useRequestTransfer } from '../api/request-transfer';
import { WalletSummary } from '../components/WalletSummary';
import w from '../wallet.module.css';
import { pickWallet, walletIdOf } from '../wallet-state';
import {
  canWithdraw,
  formatDestTagInput,
  formatWithdrawInput,
  parseDestTag,
  plainAmount,
  type WithdrawValues,
  withdrawSchema,
} from '../withdraw-rules';

/**
 * /withdraw (SPEC §2, §5 "Withdraw"; DECISIONS §5): send coins to another member's wallet (INTERNAL,
 * instant) or an outside address (EXTERNAL, pending until the operator sends it). The amount allows digits
 * and one dot, 6 decimals, with separators; above the balance it is an error; the button is disabled when
 * empty, in error or sending. An external withdrawal cannot be undone, so it first opens a review sheet
 * (address, amount, fee, what arrives) where the member confirms with the password (DECISIONS §13 step-up).
 * XRP adds the destination tag field (DECISIONS §17: optional, an integer 0..2^32-1), shown on the review too.
 */
export default function WithdrawPage() {
  const { t } = useTranslation('wallet');
  const navigate = useNavigate();
  const id = walletIdOf(useLocation().state);
  const wallets = useWallets();
  const wallet = pickWallet(wallets.data, id);
  const send = useRequestTransfer();
  const [reviewing, setReviewing] = useState(false);
  // Errors show while typing (mode onChange); the rules need the wallet's coin and balance, read each render.
  const form = useForm<WithdrawValues>({
    resolver: (values, context, options) =>
      zodResolver(withdrawSchema(wallet?.coinCode, wallet?.balance ?? '0'))(values, context, options),
    mode: 'onChange',
    defaultValues: { destType: 'INTERNAL', address: '', amount: '', password: '', destTag: '' },
  });
  const { setValue, watch, setError, clearErrors, formState } = form;
  const { destType, address, amount, password, destTag = '' } = watch();
  if (id === null || (wallets.isSuccess && !wallet)) return <Navigate to={paths.myInfo.path} replace />;
  if (!wallet) return <Page title={t('withdraw.title')}>{null}</Page>;

  const errors = formState.errors;
  const amountErr = errors.amount?.message;
  // ADDRESS_INVALID is the shape rule; a server refusal (type 'server') is shown as given until the address
  // changes (issue 13).
  const addressErr =
    errors.address?.message === 'ADDRESS_INVALID'
      ? t('addressInvalid', { coin: wallet.coinCode })
      : errors.address?.message;
  const setPasswordError = (message: string) => setError('password', { type: 'server', message });
  const destTagErr =
    errors.destTag?.message === 'DEST_TAG_INVALID' ? t('withdraw.destTagInvalid') : errors.destTag?.message;
  const change = (name: 'address' | 'amount' | 'destTag', value: string) =>
    setValue(name, value, { shouldValidate: true, shouldDirty: true });
  const isXrp = wallet.coinCode === 'XRP';
  const tag = isXrp ? (parseDestTag(destTag) ?? null) : null;
  const ready = canWithdraw(amount, wallet.balance, address, send.isPending, wallet.coinCode, destTag);
  const submit = async (stepUp: StepUp) => {
    if (!ready) return;
    try {
      const sent = await send.mutateAsync({
        fromWalletId: wallet.id,
        destType,
        amount: plainAmount(amount),
        destInternalAddress: destType === 'INTERNAL' ? address.trim() : null,
        destExternalAddress: destType === 'EXTERNAL' ? address.trim() : null,
        ...(isXrp ? { destTag: tag } : {}),
        stepUp,
      });
      // XRP to the platform account with a member's tag is done internally whichever destination was picked.
      notify.success(t(sent.destType === 'INTERNAL' ? 'withdraw.sent' : 'withdraw.requested'));
      navigate(paths.wallet.path, { replace: true, state: { walletId: wallet.id } });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'INVALID_CREDENTIALS') {
        setPasswordError(t('common:stepUp.wrongPassword'));
        return;
      }
      setReviewing(false);
      if (err instanceof ApiError && err.fields.destTag) {
        setError('destTag', { type: 'server', message: fieldText(err.fields.destTag) });
        return;
      }
      if (
        err instanceof ApiError &&
        ['INVALID_ADDRESS', 'WALLET_NOT_FOUND', 'SELF_TRANSFER'].includes(err.code)
      ) {
        setError('address', { type: 'server', message: errorText(err, 'wallet:withdraw.failed', 'trade') });
        return;
      }
      notify.error(errorText(err, 'wallet:withdraw.failed', 'trade'));
    }
  };
  const openReview = () => {
    if (!ready) return;
    setValue('password', '');
    clearErrors('password');
    setReviewing(true);
  };
  const confirm = () => {
    if (!password) return setPasswordError(t('common:stepUp.required'));
    void submit({ password });
  };
  const plain = plainAmount(amount);
  // The withdrawal fee is charged on external withdrawals only; an internal transfer arrives whole.
  const fee = destType === 'EXTERNAL' ? (wallet.withdrawFee ?? '0') : '0';
  const total = plain ? fromUnits(toUnits(plain) + toUnits(fee)) : '0';
  const qty = (q: string) => `${formatQty(q, 8)} ${wallet.coinCode}`;

  return (
    <Page title={t('withdraw.title')}>
      <WalletSummary wallet={wallet} />
      <Card className={w.form}>
        <h2 className={w.sectionTitle}>{t('withdraw.destination')}</h2>
        <SegmentedControl<DestType>
          label={t('withdraw.destination')}
          value={destType}
          onChange={(d) => setValue('destType', d)}
          options={[
            { value: 'INTERNAL', label: t('withdraw.internal') },
            { value: 'EXTERNAL', label: t('withdraw.external') },
          ]}
          testId="withdraw-dest"
        />
        <AddressField
          label={t(destType === 'INTERNAL' ? 'withdraw.internalAddress' : 'withdraw.externalAddress')}
          value={address}
          placeholder={t('withdraw.addressPlaceholder')}
          onChange={(v) => change('address', v)}
          error={addressErr}
          testId="withdraw-address"
          scanTestId="withdraw-scan"
        />
        {isXrp && (
          <TextField
            label={t('withdraw.destTag')}
            inputMode="numeric"
            autoComplete="off"
            value={destTag}
            placeholder="0"
            onChange={(e) => change('destTag', formatDestTagInput(e.currentTarget.value))}
            error={destTagErr}
            hint={t('withdraw.destTagHint')}
            data-testid="withdraw-dest-tag"
          />
        )}
        <TextField
          label={t('withdraw.amount')}
          inputMode="decimal"
          value={amount}
          placeholder="0"
          onChange={(e) => change('amount', formatWithdrawInput(e.currentTarget.value))}
          error={amountErr ? t(`withdraw.errors.${amountErr}`) : undefined}
          aside={
            <Button
              variant="outline"
              size="small"
              onClick={() => change('amount', formatWithdrawInput(formatQty(wallet.balance, 6)))}
              data-testid="withdraw-max"
            >
              {t('withdraw.max')}
            </Button>
          }
          data-testid="withdraw-amount"
        />
        <div className={w.balanceLine}>
          <span className={w.muted}>{t('withdraw.available')}</span>
          <strong data-testid="withdraw-available">
            {formatQty(wallet.balance, 8)} {wallet.coinCode}
          </strong>
        </div>
        {destType === 'EXTERNAL' && (
          <p className={w.muted} style={{ margin: 0 }}>
            {t('withdraw.externalNote')}
          </p>
        )}
      </Card>
      <StickyCta>
        <Button block disabled={!ready} onClick={openReview} data-testid="withdraw-submit">
          {send.isPending ? t('withdraw.sending') : t('withdraw.review.open')}
        </Button>
      </StickyCta>
      <Modal
        open={reviewing}
        title={t('withdraw.review.title')}
        onClose={() => setReviewing(false)}
        footer={() => (
          <Button block onClick={confirm} disabled={send.isPending} data-testid="withdraw-confirm">
            {send.isPending ? t('withdraw.review.confirming') : t('withdraw.review.confirm')}
          </Button>
        )}
      >
        <div className={w.form} data-testid="withdraw-review">
          <KeyValueList>
            <KeyValue label={t('withdraw.review.address')} testId="review-address">
              <span className={w.mono}>{address.trim()}</span>
            </KeyValue>
            {isXrp && (
              <KeyValue label={t('withdraw.review.destTag')} testId="review-dest-tag">
                <span className={w.mono}>{tag ?? t('withdraw.review.noTag')}</span>
              </KeyValue>
            )}
            <KeyValue label={t('withdraw.review.amount')} testId="review-amount">
              {qty(plain || '0')}
            </KeyValue>
            <KeyValue label={t('withdraw.review.fee')} testId="review-fee">
              {qty(fee)}
            </KeyValue>
            <KeyValue label={t('withdraw.review.total')} testId="review-total">
              {qty(total)}
            </KeyValue>
            <KeyValue label={t('withdraw.review.arrives')} testId="review-arrives">
              <strong>{qty(plain || '0')}</strong>
            </KeyValue>
          </KeyValueList>
          <p className={w.warning} role="note">
            {t('withdraw.review.irreversible')}
          </p>
          <PasswordField
            label={t('withdraw.review.passwordLabel')}
            autoComplete="current-password"
            value={password}
            onChange={(e) => {
              setValue('password', e.currentTarget.value);
              clearErrors('password');
            }}
            onKeyDown={(e) => e.key === 'Enter' && confirm()}
            error={errors.password?.message}
            data-testid="withdraw-password"
          />
        </div>
      </Modal>
    </Page>
  );
}
