import { zodResolver } from '@hookform/resolvers/zod';
import { DEST_TAG_MAX, FIELD_CODES as F, type OpsDeposit, opsDepositBody, qtyField } from '@p2p/contract';
import { COINS } from '@p2p/contract/enums.ts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { SelectField } from '../../../components/ui/SelectField';
import { TextField } from '../../../components/ui/TextField';
import { fieldText } from '../../../lib/errors';
import { formatTime } from '../../../lib/format-time';
import { useAuditLog } from '../api/audit-log';
import { creditDeposit } from '../api/deposits';
import { Mono, OpsTable, PageTitle } from '../components/Table';
import { useConfirmAction } from '../hooks/use-confirm-action';
import s from '../ops.module.css';

/** The form: the API's own deposit rules; the amount a decimal string (never a float), trimmed. */
const depositForm = opsDepositBody.pick({ coinCode: true, address: true, txid: true }).extend({
  amount: z.string(F.REQUIRED).trim().pipe(qtyField()),
  index: z
    .string()
    .trim()
    .regex(/^\d{0,6}$/, F.INVALID_FORMAT),
  /** XRP: the payment's destination tag (DECISIONS §17); empty = none. */
  destinationTag: z
    .string()
    .trim()
    .regex(/^\d{0,10}$/, F.INVALID_FORMAT)
    .refine((v) => v === '' || Number(v) <= DEST_TAG_MAX, F.INVALID_FORMAT),
});
type DepositInput = z.input<typeof depositForm>;
type DepositValues = z.output<typeof depositForm>;

const EMPTY: DepositInput = {
  coinCode: 'BTC',
  address: '',
  amount: '',
  txid: '',
  index: '',
  destinationTag: '',
};

/**
 * /ops/deposits: credits an on-chain deposit to the wallet owning the address (DECISIONS §5), after a
 * confirmation; a repeated coin + TxID + index is answered as already credited and moves nothing. Recent
 * credits come from the audit log. XRP paid to the platform account names its wallet by the destination tag
 * (DECISIONS §17), a field shown for XRP only.
 */
export default function DepositCreditPage() {
  const { t } = useTranslation(['ops', 'common']);
  const form = useForm<DepositInput, unknown, DepositValues>({
    resolver: zodResolver(depositForm),
    defaultValues: EMPTY,
  });
  const { register, formState, handleSubmit, reset, watch } = form;
  const isXrp = watch('coinCode') === 'XRP';
  const err = (k: keyof DepositInput) => fieldText(formState.errors[k]?.message, 'ops');
  const { confirm, dialog } = useConfirmAction();
  const [result, setResult] = useState<OpsDeposit | null>(null);
  const recent = useAuditLog('deposit', undefined, 10);

  const onValid = (v: DepositValues) =>
    confirm({
      title: t('ops:deposits.confirmTitle'),
      details: [
        { label: t('ops:deposits.coin'), value: v.coinCode },
        { label: t('ops:deposits.address'), value: <Mono>{v.address}</Mono> },
        { label: t('ops:deposits.amount'), value: `${v.amount} ${v.coinCode}` },
        { label: t('ops:deposits.txid'), value: <Mono>{v.txid}</Mono> },
        { label: t('ops:deposits.index'), value: v.index || '0' },
        ...(v.coinCode === 'XRP' && v.destinationTag
          ? [{ label: t('ops:deposits.destinationTag'), value: <Mono>{v.destinationTag}</Mono> }]
          : []),
      ],
      note: t('ops:deposits.confirmNote'),
      confirmLabel: t('ops:deposits.submit'),
      tone: 'primary',
      run: async () => {
        const d = await creditDeposit({
          coinCode: v.coinCode,
          address: v.address,
          amount: v.amount,
          txid: v.txid,
          index: v.index ? Number.parseInt(v.index, 10) : 0,
          destinationTag: v.coinCode === 'XRP' && v.destinationTag ? Number(v.destinationTag) : null,
        });
        setResult(d);
        if (d.created) reset({ ...EMPTY, coinCode: v.coinCode });
        return d.created
          ? t('ops:deposits.credited', { amount: d.amount, coin: d.coinCode, member: d.memberId })
          : t('ops:deposits.duplicate', { id: d.transferId });
      },
    });

  return (
    <>
      <PageTitle title={t('ops:deposits.title')} sub={t('ops:deposits.sub')} />
      <div className={s.split}>
        <Card>
          <form className={s.form} onSubmit={handleSubmit(onValid)} noValidate data-testid="deposit-form">
            <SelectField
              label={t('ops:deposits.coin')}
              options={COINS.map((c) => ({ value: c, label: `${c} · ${t(`common:coins.${c}`)}` }))}
              error={err('coinCode')}
              {...register('coinCode')}
            />
            <TextField
              label={t('ops:deposits.address')}
              autoComplete="off"
              spellCheck={false}
              className={s.mono}
              error={err('address')}
              {...register('address')}
            />
            {isXrp && (
              <TextField
                label={t('ops:deposits.destinationTag')}
                inputMode="numeric"
                autoComplete="off"
                hint={t('ops:deposits.destinationTagHint')}
                error={err('destinationTag')}
                data-testid="deposit-destination-tag"
                {...register('destinationTag')}
              />
            )}
            <TextField
              label={t('ops:deposits.amount')}
              inputMode="decimal"
              autoComplete="off"
              hint={t('ops:deposits.amountHint')}
              error={err('amount')}
              {...register('amount')}
            />
            <TextField
              label={t('ops:deposits.txid')}
              autoComplete="off"
              spellCheck={false}
              className={s.mono}
              error={err('txid')}
              {...register('txid')}
            />
            <TextField
              label={t('ops:deposits.index')}
              inputMode="numeric"
              autoComplete="off"
              placeholder="0"
              hint={t('ops:deposits.indexHint')}
              error={err('index')}
              {...register('index')}
            />
            <Button type="submit" block data-testid="deposit-submit">
              {t('ops:deposits.submit')}
            </Button>
          </form>
        </Card>
        {result && (
          <Card className={s.resultCard} data-testid="deposit-result">
            <h2 className={s.h2}>
              {result.created ? t('ops:deposits.resultCreated') : t('ops:deposits.resultDuplicate')}
            </h2>
            <dl className={s.facts}>
              <div className={s.fact}>
                <dt>{t('ops:deposits.transfer')}</dt>
                <dd>#{result.transferId}</dd>
              </div>
              <div className={s.fact}>
                <dt>{t('ops:deposits.member')}</dt>
                <dd>
                  #{result.memberId} · {t('ops:deposits.wallet')} #{result.walletId}
                </dd>
              </div>
              <div className={s.fact}>
                <dt>{t('ops:deposits.address')}</dt>
                <dd>
                  <Mono>{result.address}</Mono>
                </dd>
              </div>
              <div className={s.fact}>
                <dt>{t('ops:deposits.amount')}</dt>
                <dd>
                  {result.amount} {result.coinCode}
                </dd>
              </div>
              <div className={s.fact}>
                <dt>{t('ops:deposits.txid')}</dt>
                <dd>
                  <Mono>{result.txid}</Mono>
                </dd>
              </div>
            </dl>
          </Card>
        )}
      </div>
      <h2 className={s.h2}>{t('ops:deposits.recent')}</h2>
      <OpsTable
        testId="ops-recent-deposits"
        columns={[
          t('ops:audit.time'),
          t('ops:audit.operator'),
          t('ops:deposits.transfer'),
          t('ops:deposits.amount'),
          t('ops:deposits.txid'),
        ]}
        loading={recent.isPending}
        error={recent.error}
        empty={recent.data?.list.length === 0}
        onRetry={() => void recent.refetch()}
      >
        {recent.data?.list.map((e) => (
          <tr key={e.id}>
            <td className={s.nowrap}>{formatTime(e.createdAt)}</td>
            <td>{e.operatorLoginId}</td>
            <td className={s.num}>#{e.targetId}</td>
            <td className={s.num}>
              {String(e.data?.amount ?? '')} {String(e.data?.coin ?? '')}
            </td>
            <td>
              <Mono>{String(e.data?.txid ?? '')}</Mono>
            </td>
          </tr>
        ))}
      </OpsTable>
      {dialog}
    </>
  );
}
