import type { DisputeReason, OrderDispute } from '@p2p/contract';
import type { OrderStatus } from '@p2p/contract/enums.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/Button';
import { paths } from '../../../config/paths';
import { formatQty, formatWon } from '../../../lib/format';
import { notifyRefusal } from '../../../lib/refusal';
import { notify } from '../../../lib/toast';
import { cancelBuyOrder } from '../api/cancel-buy-order';
import { disputeOrder } from '../api/dispute-order';
import { tradeListingsKey } from '../api/get-trade-listings';
import { markPaid } from '../api/mark-paid';
import { orderViewKeys } from '../api/order-queries';
import { rejectBuyOrder } from '../api/reject-buy-order';
import type { MemberAction, OrderSide } from '../protocol-rules';
import s from '../trade.module.css';
import { DisputeSheet } from './DisputeSheet';
import { ProtocolDialog } from './ProtocolDialog';

/** The order fields the actions name in their dialogs. */
export interface ActionTarget {
  orderId: number;
  status: OrderStatus;
  coinCode: string;
  requestQty: string;
  requestKrwAmount: number;
  /** the seller's account holder (the buyer's "did you send it to {holder}?") */
  holder: string;
  /** the buyer's nickname (the seller's reject dialog) */
  counterpart: string;
  dispute: OrderDispute | null;
}

type Open = 'paid' | 'cancel' | 'reject' | 'dispute' | 'statement' | null;

/** Query keys every protocol move makes stale: the order views of both parties and the trade list. */
const stale = () => [...orderViewKeys(), tradeListingsKey];

/**
 * The buttons of an order screen, exactly the `actions` the transition table allows (protocol-rules.ts),
 * each behind a confirmation that names the order and the amount: 입금했어요 ("did you really send
 * {amount}원 to {holder}?"), cancel and reject (red, "이미 입금했다면 취소하지 마세요" in PAID), dispute
 * (reason and statement); complete opens the seller's deliberate release (/proceed).
 */
export function OrderActions({
  order,
  side,
  actions,
  onMoved,
  afterCancel,
}: {
  order: ActionTarget;
  side: OrderSide;
  actions: MemberAction[];
  onMoved: () => void;
  /** where to go once the order ended by this party (default: stay and show the new state) */
  afterCancel?: () => void;
}) {
  const { t } = useTranslation('trade');
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [open, setOpen] = useState<Open>(null);
  const [busy, setBusy] = useState(false);
  if (actions.length === 0) return null;

  const amount = formatWon(order.requestKrwAmount);
  const qty = `${formatQty(order.requestQty)} ${order.coinCode}`;

  const run = async (call: () => Promise<unknown>, done: string, ended = false): Promise<boolean> => {
    setBusy(true);
    try {
      await call();
      notify.success(done);
      await Promise.all(stale().map((queryKey) => qc.invalidateQueries({ queryKey })));
      if (ended && afterCancel) afterCancel();
      else onMoved();
      return true;
    } catch (err) {
      notifyRefusal(err, 'trade:protocol.failed', 'trade');
      // the order may have moved under us (expired, the other party acted): show where it stands now
      onMoved();
      return true;
    } finally {
      setBusy(false);
    }
  };

  const button = (a: MemberAction) => {
    const danger = a === 'cancel' || a === 'reject';
    const primary = a === 'paid' || a === 'complete';
    const onClick =
      a === 'complete'
        ? () => navigate(paths.proceed.path, { state: { orderId: order.orderId } })
        : () => setOpen(a);
    return (
      <Button
        key={a}
        block
        variant={primary ? 'primary' : 'outline'}
        className={danger ? s.dangerOutline : undefined}
        disabled={busy}
        onClick={onClick}
        data-testid={`action-${a}`}
      >
        {t(`protocol.actions.${side}.${a}`)}
      </Button>
    );
  };

  return (
    <>
      <div className={s.actionBar} data-testid="order-actions">
        {actions.map(button)}
      </div>
      <ProtocolDialog
        open={open === 'paid'}
        title={t('protocol.paidConfirm.title')}
        confirmLabel={t('protocol.paidConfirm.yes')}
        cancelLabel={t('protocol.paidConfirm.no')}
        busy={busy}
        onConfirm={() => run(() => markPaid(order.orderId), t('protocol.paidConfirm.done'))}
        onClose={() => setOpen(null)}
        testId="paid-dialog"
      >
        <p className={s.dialogLead}>{t('protocol.paidConfirm.message', { holder: order.holder, amount })}</p>
        <p className={s.dialogText}>{t('protocol.paidConfirm.note')}</p>
      </ProtocolDialog>
      <ProtocolDialog
        open={open === 'cancel' || open === 'reject'}
        title={t('details.confirmTitle')}
        confirmLabel={t('common:actions.yes')}
        cancelLabel={t('common:actions.no')}
        danger
        busy={busy}
        onConfirm={() =>
          open === 'reject'
            ? run(() => rejectBuyOrder(order.orderId), t('details.cancelled.sell-history'), true)
            : run(() => cancelBuyOrder(order.orderId), t('details.cancelled.purchase'), true)
        }
        onClose={() => setOpen(null)}
        testId="cancel-dialog"
      >
        <p className={s.dialogLead}>
          {t(`protocol.${open === 'reject' ? 'rejectConfirm' : 'cancelConfirm'}.message`, {
            id: order.orderId,
            amount,
            qty,
            buyer: order.counterpart,
          })}
        </p>
        {order.status === 'PAID' && (
          <p className={s.dialogWarn} data-testid="cancel-paid-warning">
            {t('protocol.cancelConfirm.paidWarning')}
          </p>
        )}
        <p className={s.dialogText}>{t('protocol.irreversible')}</p>
      </ProtocolDialog>
      {(open === 'dispute' || open === 'statement') && (
        <DisputeSheet
          open
          mode={open === 'dispute' ? 'open' : 'statement'}
          fixedReason={order.dispute?.reason ?? null}
          orderId={order.orderId}
          busy={busy}
          onSubmit={(reason: DisputeReason, statement: string) =>
            run(
              () => disputeOrder(order.orderId, { reason, statement }),
              t(open === 'dispute' ? 'protocol.dispute.done' : 'protocol.dispute.statementDone'),
            )
          }
          onClose={() => setOpen(null)}
        />
      )}
    </>
  );
}
