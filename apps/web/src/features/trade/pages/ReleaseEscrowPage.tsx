import { zodResolver } from '@hookform/resolvers/zod';
import type { DisputeReason } from '@p2p/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
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

/**
 * /proceed (SPEC §2, §5 "Proceed"; DECISIONS §11, §13): the seller's deliberate release. It names what
 * leaves (quantity, to whom) and what to check first; the seller ticks that the amount arrived and that
 * the depositor is the buyer's real name, enters the TxID (trimmed, required) and their password, and
 * confirms once more in a red sheet that says it cannot be undone. Needs the order id from /view_details,
 * else 주문 정보가 없습니다. and /myinfo.
 */
export default function ReleaseEscrowPage() {
  const { t } = useTranslation('trade');
  const navigate = useNavigate();
  const orderId = orderIdOf(useLocation().state);
  const warned = useRef(false);
  useEffect(() => {
    if (orderId !== null || warned.current) return;
    warned.current = true;
    notify.error(t('proceed.missingOrder'));
    navigate(paths.myInfo.path, { replace: true });
  }, [orderId, navigate, t]);
  if (orderId === null) return null;
  return (
    <Page title={t('proceed.title')}>
      <ReleaseForm orderId={orderId} />
      <ThirdPartyReport orderId={orderId} />
    </Page>
  );
}

function ReleaseForm({ orderId }: { orderId: number }) {
  const { t } = useTranslation('trade');
  const navigate = useNavigate();
  const qc = useQueryClient();
  const q = useQuery(orderQueries.seller(orderId));
  // The TxID's error shows from its first blur, then while typing (mode onTouched).
  const form = useForm<ProceedValues>({
    resolver: zodResolver(proceedSchema),
    mode: 'onTouched',
    defaultValues: { amountChecked: false, nameChecked: false, txid: '', password: '' },
  });
  const { register, setValue, watch, setError, clearErrors, formState } = form;
  const { amountChecked, nameChecked, txid, password } = watch();
  const [confirming, setConfirming] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const order = q.data;
  useEffect(() => {
    if (q.isError && !order) navigate(paths.myInfo.path, { replace: true });
  }, [q.isError, order, navigate]);
  if (!order) return <DetailSkeleton kind="release" />;

  const amount = formatWon(order.requestKrwAmount);
  const qty = `${formatQty(order.requestQty)} ${order.coinCode}`;
  const allowed = memberActions(order, 'seller', Date.now()).actions.includes('complete');
  const ready = canRelease({ amountChecked, nameChecked, txid, password, submitting });
  const error = formState.errors.txid?.message;

  const release = async (): Promise<boolean> => {
    setSubmitting(true);
    try {
      await completeBuyOrder(orderId, normalizeTxid(txid), { password });
      notify.success(t('proceed.success'));
      await qc.invalidateQueries();
      navigate(paths.myInfo.path, { replace: true });
      return true;
    } catch (err) {
      const wrong = err instanceof ApiError && err.code === 'INVALID_CREDENTIALS';
      if (wrong) setError('password', { type: 'server', message: t('common:stepUp.wrongPassword') });
      notify.error(
        wrong ? t('common:stepUp.wrongPassword') : errorText(err, 'trade:proceed.failed', 'trade'),
      );
      void q.refetch();
      return true;
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <>
      <StatusPanel order={order} side="seller" disputeLater={null} onDue={() => void q.refetch()} />
      <Card className={s.form} data-testid="release-form">
        <h2 className={s.sectionTitle}>{t('release.heading', { qty, buyer: order.buyerNickname })}</h2>
        <p className={s.dialogText}>{t('release.intro')}</p>
        <label className={s.checkRow}>
          <input
            type="checkbox"
            checked={amountChecked}
            onChange={(e) => setValue('amountChecked', e.currentTarget.checked)}
            disabled={!allowed}
            data-testid="release-check-amount"
          />
          <span>
            {t('release.checkAmount', {
              amount,
              bank: order.sellerBankName,
              account: order.sellerAccountNo,
            })}
          </span>
        </label>
        <label className={s.checkRow}>
          <input
            type="checkbox"
            checked={nameChecked}
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
          maxLength={128}
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
      <Button
        block
        className={s.danger}
        onClick={() => setConfirming(true)}
        disabled={!allowed || !ready}
        data-testid="proceed-submit"
      >
        {submitting ? t('proceed.submitting') : t('release.submit', { qty })}
      </Button>
      <OrderChat orderId={orderId} side="seller" />
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
          {`${t('release.confirmMessage', { qty, buyer: order.buyerNickname, name: order.buyerName, amount })} ${t('release.confirmDepositor', { name: order.expectedDepositorName })}`}
        </p>
        <p className={s.dialogWarn}>{t('release.irreversibleShort')}</p>
      </ProtocolDialog>
    </>
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
      notify.error(errorText(err, 'trade:proceed.failed', 'trade'));
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
