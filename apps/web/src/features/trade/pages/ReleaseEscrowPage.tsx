import { zodResolver } from '@hookform/resolvers/zod';
import type { DisputeReason } from '@p2p/contract';
import type { OrderStatus } from '@p2p/contract/enums.ts';
import { LIMITS } from '@p2p/contract/limits.ts';
import type { SellOrderDetail } from '@p2p/contract/market.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { type UseFormReturn, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Page } from '../../../components/layout/Page';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { PasswordField } from '../../../components/ui/PasswordField';
import { TextField } from '../../../components/ui/TextField';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { errorText } from '../../../lib/errors';
import { formatQty, formatWon } from '../../../lib/format';
import { notifyRefusal } from '../../../lib/refusal';
import { notify } from '../../../lib/toast';
import { completeBuyOrder } from '../api/complete-buy-order';
import { disputeOrder } from '../api/dispute-order';
import { orderQueries } from '../api/order-queries';
import { DetailSkeleton } from '../components/DetailSkeleton';
import { DisputeSheet } from '../components/DisputeSheet';
import { OrderChat } from '../components/OrderChat';
import { ProtocolDialog } from '../components/ProtocolDialog';
import { StatusPanel } from '../components/StatusPanel';
import { normalizeTxid, type ProceedValues, proceedSchema } from '../proceed-rules';
import { canRelease, memberActions } from '../protocol-rules';
import s from '../trade.module.css';
import { orderIdOf } from '../trade-state';

/** The title's key for the order's state: the release while it is open, else what became of the order. */
function titleKey(status: OrderStatus | undefined): string {
  if (status === 'COMPLETED') return 'proceed.titleDone';
  if (status === 'DISPUTED') return 'proceed.titleDisputed';
  if (status === undefined || status === 'REQUESTED' || status === 'PAID') return 'proceed.title';
  return 'proceed.titleEnded';
}

/**
 * /proceed (SPEC §2, §5 "Proceed"; DECISIONS §11, §13): the seller's deliberate release. It names what
 * leaves (quantity, to whom) and what to check first; the seller ticks that the amount arrived and that
 * the depositor is the buyer's real name, keeps or edits the deposit note (입금 확인 메모, prefilled with the
 * buyer's name, 1-100 printable characters) and their password, and confirms once more in a red sheet that
 * says it cannot be undone. The title follows the order's state (거래 완료 only once it is). Needs the order id
 * from /view_details, else 주문 정보가 없어요. and /myinfo.
 */
export default function ReleaseEscrowPage() {
  const { t } = useTranslation('trade');
  const navigate = useNavigate();
  const orderId = orderIdOf(useLocation().state);
  const q = useQuery({ ...orderQueries.seller(orderId ?? 0), enabled: orderId !== null });
  const warned = useRef(false);
  useEffect(() => {
    if (orderId !== null || warned.current) return;
    warned.current = true;
    notify.error(t('proceed.missingOrder'));
    navigate(paths.myInfo.path, { replace: true });
  }, [orderId, navigate, t]);
  useEffect(() => {
    if (q.isError && !q.data) navigate(paths.myInfo.path, { replace: true });
  }, [q.isError, q.data, navigate]);
  if (orderId === null) return null;
  return (
    <Page title={t(titleKey(q.data?.status))}>
      {q.data ? (
        <ReleaseForm order={q.data} refetch={() => void q.refetch()} />
      ) : (
        <DetailSkeleton kind="release" />
      )}
      <ThirdPartyReport orderId={orderId} />
    </Page>
  );
}

function ReleaseForm({ order, refetch }: { order: SellOrderDetail; refetch: () => void }) {
  const { t } = useTranslation('trade');
  const navigate = useNavigate();
  const qc = useQueryClient();
  // The note's error shows as it is typed (mode onChange): it comes prefilled, so a blur may never happen.
  const form = useForm<ProceedValues>({
    resolver: zodResolver(proceedSchema),
    mode: 'onChange',
    defaultValues: { amountChecked: false, nameChecked: false, txid: order.buyerName, password: '' },
  });
  const { amountChecked, nameChecked, txid, password } = form.watch();
  const [confirming, setConfirming] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const qty = `${formatQty(order.requestQty)} ${order.coinCode}`;
  const allowed = memberActions(order, 'seller', Date.now()).actions.includes('complete');
  const ready = canRelease({ amountChecked, nameChecked, txid, password, submitting });

  const release = async (): Promise<boolean> => {
    setSubmitting(true);
    try {
      await completeBuyOrder(order.orderId, normalizeTxid(txid), { password });
      notify.success(t('proceed.success'));
      await qc.invalidateQueries();
      navigate(paths.myInfo.path, { replace: true });
    } catch (err) {
      const wrong = err instanceof ApiError && err.code === 'INVALID_CREDENTIALS';
      if (wrong) form.setError('password', { type: 'server', message: t('common:stepUp.wrongPassword') });
      notify.error(
        wrong ? t('common:stepUp.wrongPassword') : errorText(err, 'trade:proceed.failed', 'trade'),
      );
      refetch();
    } finally {
      setSubmitting(false);
    }
    return true;
  };

  return (
    <>
      <StatusPanel order={order} side="seller" disputeLater={null} onDue={refetch} />
      <ReleaseFields order={order} form={form} allowed={allowed} qty={qty} />
      <Button
        block
        className={s.danger}
        onClick={() => setConfirming(true)}
        disabled={!allowed || !ready}
        data-testid="proceed-submit"
      >
        {submitting ? t('proceed.submitting') : t('release.submit', { qty })}
      </Button>
      <OrderChat orderId={order.orderId} side="seller" />
      <ProtocolDialog
        open={confirming}
        title={t('release.confirmTitle')}
        confirmLabel={t('release.confirmYes')}
        cancelLabel={t('protocol.keep')}
        danger
        busy={submitting}
        onConfirm={release}
        onClose={() => setConfirming(false)}
        testId="release-sheet"
      >
        <p className={s.dialogLead}>
          {t('release.confirmMessage', {
            qty,
            buyer: order.buyerNickname,
            name: order.buyerName,
            amount: formatWon(order.requestKrwAmount),
          })}{' '}
          {t('release.confirmDepositor', { name: order.expectedDepositorName })}
        </p>
        <p className={s.dialogWarn}>{t('release.irreversibleShort')}</p>
      </ProtocolDialog>
    </>
  );
}

/** The two checks the seller makes in their bank account, the deposit note and the step-up password. */
function ReleaseFields(p: {
  order: SellOrderDetail;
  form: UseFormReturn<ProceedValues>;
  allowed: boolean;
  qty: string;
}) {
  const { t } = useTranslation('trade');
  const { order, form, allowed, qty } = p;
  const { register, setValue, watch, clearErrors, formState } = form;
  const error = formState.errors.txid?.message;
  return (
    <Card className={s.form} data-testid="release-form">
      <h2 className={s.sectionTitle}>{t('release.heading', { qty, buyer: order.buyerNickname })}</h2>
      <p className={s.dialogText}>{t('release.intro')}</p>
      <label className={s.checkRow}>
        <input
          type="checkbox"
          checked={watch('amountChecked')}
          onChange={(e) => setValue('amountChecked', e.currentTarget.checked)}
          disabled={!allowed}
          data-testid="release-check-amount"
        />
        <span>
          {t('release.checkAmount', {
            amount: formatWon(order.requestKrwAmount),
            bank: order.sellerBankName,
            account: order.sellerAccountNo,
          })}
        </span>
      </label>
      <label className={s.checkRow}>
        <input
          type="checkbox"
          checked={watch('nameChecked')}
          onChange={(e) => setValue('nameChecked', e.currentTarget.checked)}
          disabled={!allowed}
          data-testid="release-check-name"
        />
        <span>{t('release.checkName', { name: order.expectedDepositorName })}</span>
      </label>
      <TextField
        label={t('proceed.txid')}
        placeholder={t('proceed.placeholder')}
        autoComplete="off"
        spellCheck={false}
        maxLength={LIMITS.depositNoteMax + 20}
        disabled={!allowed}
        {...register('txid')}
        error={error ? t(`proceed.errors.${error}`) : undefined}
        hint={t('proceed.description')}
        data-testid="proceed-txid"
      />
      <PasswordField
        label={t('proceed.password')}
        autoComplete="current-password"
        {...register('password', { onChange: () => clearErrors('password') })}
        error={formState.errors.password?.message}
        hint={t('release.passwordHint')}
        data-testid="proceed-password"
      />
      <p className={s.dialogWarn} data-testid="release-irreversible">
        {t('release.irreversible', { qty, buyer: order.buyerNickname })}
      </p>
    </Card>
  );
}

/**
 * DECISIONS §19: the won came from someone other than the buyer -> the dispute THIRD_PARTY_PAYMENT in one tap
 * (a seller may dispute any time in PAID).
 */
function ThirdPartyReport({ orderId }: { orderId: number }) {
  const { t } = useTranslation('trade');
  const qc = useQueryClient();
  const order = useQuery(orderQueries.seller(orderId)).data;
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  if (order?.status !== 'PAID') return null;
  const submit = async (reason: DisputeReason, statement: string) => {
    setBusy(true);
    try {
      await disputeOrder(orderId, { reason, statement });
      notify.success(t('protocol.dispute.done'));
      await qc.invalidateQueries();
      return true;
    } catch (err) {
      notifyRefusal(err, 'trade:proceed.failed', 'trade');
      return false;
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button variant="secondary" block onClick={() => setOpen(true)} data-testid="release-third-party">
        {t('release.thirdParty')}
      </Button>
      {open && (
        <DisputeSheet
          open
          mode="open"
          fixedReason="THIRD_PARTY_PAYMENT"
          orderId={orderId}
          busy={busy}
          onSubmit={submit}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}
