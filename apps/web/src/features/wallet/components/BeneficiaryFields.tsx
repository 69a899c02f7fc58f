import type { BeneficiaryKind } from '@p2p/contract';
import type { UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/ui/Card';
import { SegmentedControl } from '../../../components/ui/SegmentedControl';
import { TextField } from '../../../components/ui/TextField';
import { formatWon } from '../../../lib/format';
import w from '../wallet.module.css';
import type { WithdrawValues } from '../withdraw-rules';

/**
 * The Travel Rule step of an external withdrawal (DECISIONS §19), shown only when the amount is worth
 * `minKrw` or more: the receiver's name, whether the address is at another exchange (VASP, whose name is then
 * asked) or the receiver's own wallet.
 */
export function BeneficiaryFields({ form, minKrw }: { form: UseFormReturn<WithdrawValues>; minKrw: number }) {
  const { t } = useTranslation('wallet');
  const { beneficiaryName = '', beneficiaryKind = 'SELF_HOSTED', vaspName = '' } = form.watch();
  const set = (name: 'beneficiaryName' | 'vaspName', value: string) =>
    form.setValue(name, value, { shouldDirty: true });
  return (
    <Card className={w.form} data-testid="withdraw-beneficiary">
      <h2 className={w.sectionTitle}>{t('withdraw.beneficiary.title')}</h2>
      <p className={w.muted} style={{ margin: 0 }}>
        {t('withdraw.beneficiary.why', { minKrw: formatWon(minKrw) })}
      </p>
      <TextField
        label={t('withdraw.beneficiary.name')}
        value={beneficiaryName}
        autoComplete="off"
        onChange={(e) => set('beneficiaryName', e.currentTarget.value)}
        data-testid="beneficiary-name"
      />
      <SegmentedControl<BeneficiaryKind>
        label={t('withdraw.beneficiary.kind')}
        value={beneficiaryKind}
        onChange={(k) => form.setValue('beneficiaryKind', k, { shouldDirty: true })}
        options={[
          { value: 'SELF_HOSTED', label: t('withdraw.beneficiary.SELF_HOSTED') },
          { value: 'VASP', label: t('withdraw.beneficiary.VASP') },
        ]}
        testId="beneficiary-kind"
      />
      {beneficiaryKind === 'VASP' && (
        <TextField
          label={t('withdraw.beneficiary.vaspName')}
          value={vaspName}
          placeholder={t('withdraw.beneficiary.vaspPlaceholder')}
          onChange={(e) => set('vaspName', e.currentTarget.value)}
          data-testid="beneficiary-vasp"
        />
      )}
    </Card>
  );
}
