import type { DestType, Wallet } from '@p2p/contract';
import type { UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { AddressField } from '../../../components/ui/AddressField';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { SegmentedControl } from '../../../components/ui/SegmentedControl';
import { TextField } from '../../../components/ui/TextField';
import { formatBalance, formatQty } from '../../../lib/format';
import w from '../wallet.module.css';
import { formatDestTagInput, formatWithdrawInput, type WithdrawValues } from '../withdraw-rules';

/**
 * /withdraw's form card: internal or external destination, the address (typed or scanned), the destination
 * tag for XRP, then the amount part (WithdrawAmount). Errors show while typing; a server's refusal of the
 * address or tag is shown as given until that field changes.
 */
export function WithdrawFields({ form, wallet }: { form: UseFormReturn<WithdrawValues>; wallet: Wallet }) {
  const { t } = useTranslation('wallet');
  const { setValue, watch, formState } = form;
  const { destType, address, destTag = '' } = watch();
  const errors = formState.errors;
  // ADDRESS_INVALID is the shape rule; a server refusal (type 'server') is shown as given.
  const addressErr =
    errors.address?.message === 'ADDRESS_INVALID'
      ? t('addressInvalid', { coin: wallet.coinCode })
      : errors.address?.message === 'ADDRESS_SELF'
        ? t('withdraw.addressSelf')
        : errors.address?.message;
  const destTagErr =
    errors.destTag?.message === 'DEST_TAG_INVALID' ? t('withdraw.destTagInvalid') : errors.destTag?.message;
  const change = (name: 'address' | 'destTag', value: string) =>
    setValue(name, value, { shouldValidate: true, shouldDirty: true });
  return (
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
      <p className={w.networkLine} data-testid="withdraw-network">
        {t('network.label')} <strong>{t(`network.${wallet.coinCode}`)}</strong>
      </p>
      <AddressField
        label={t(destType === 'INTERNAL' ? 'withdraw.internalAddress' : 'withdraw.externalAddress')}
        value={address}
        placeholder={t('withdraw.addressPlaceholder')}
        onChange={(v) => change('address', v)}
        error={addressErr}
        testId="withdraw-address"
        scanTestId="withdraw-scan"
      />
      {wallet.coinCode === 'XRP' && (
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
      <WithdrawAmount form={form} wallet={wallet} />
    </Card>
  );
}

/**
 * The amount (digits, one dot, separators; the max button fills in the balance), the balance available and,
 * for an external withdrawal, the note that it waits for the operator.
 */
function WithdrawAmount({ form, wallet }: { form: UseFormReturn<WithdrawValues>; wallet: Wallet }) {
  const { t } = useTranslation('wallet');
  const { destType, amount } = form.watch();
  const amountErr = form.formState.errors.amount?.message;
  const change = (value: string) =>
    form.setValue('amount', value, { shouldValidate: true, shouldDirty: true });
  return (
    <>
      <TextField
        label={t('withdraw.amount')}
        inputMode="decimal"
        value={amount}
        placeholder="0"
        onChange={(e) => change(formatWithdrawInput(e.currentTarget.value))}
        error={amountErr ? t(`withdraw.errors.${amountErr}`) : undefined}
        aside={
          <Button
            variant="outline"
            size="small"
            onClick={() => change(formatWithdrawInput(formatQty(wallet.balance, 6)))}
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
          {/* DECISIONS §19: an outside address takes only what no hold keeps back */}
          {formatBalance(destType === 'EXTERNAL' ? wallet.withdrawableBalance : wallet.balance)}{' '}
          {wallet.coinCode}
        </strong>
      </div>
      {destType === 'EXTERNAL' && (
        <>
          <p className={w.muted} style={{ margin: 0 }} data-testid="withdraw-fee">
            {t('withdraw.feeLine', { fee: formatQty(wallet.withdrawFee ?? '0', 8), coin: wallet.coinCode })}
          </p>
          <p className={w.muted} style={{ margin: 0 }}>
            {t('withdraw.externalNote')}
          </p>
        </>
      )}
    </>
  );
}
