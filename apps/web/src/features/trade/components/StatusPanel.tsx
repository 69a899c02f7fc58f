import type { DisputeResolution, OrderDispute } from '@p2p/contract';
import type { OrderStatus } from '@p2p/contract/enums.ts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { cardClassName } from '../../../components/ui/Card';
import { paths } from '../../../config/paths';
import { durationText, formatClock } from '../../../lib/format-time';
import { useSecondsLeft } from '../hooks/use-seconds-left';
import { formatRemaining, type OrderSide } from '../protocol-rules';
import s from '../trade.module.css';
import { StatusBadge } from './StatusBadge';
import { StepTracker } from './StepTracker';

/**
 * Where an order stands (DECISIONS §11): the status label with its one-line explanation for this party,
 * the step tracker, the seller's release deadline while PAID, when the buyer may dispute, and the dispute
 * record while one is open or was settled.
 */
export function StatusPanel({
  order,
  side,
  disputeLater,
  onDue,
}: {
  order: {
    orderId: number;
    status: OrderStatus;
    releaseDeadline: string | null;
    dispute: OrderDispute | null;
  };
  side: OrderSide;
  disputeLater: string | null;
  onDue: () => void;
}) {
  const { t } = useTranslation('trade');
  const releaseLeft = useSecondsLeft(order.status === 'PAID' ? order.releaseDeadline : null, onDue);
  return (
    <section
      className={`${cardClassName} ${s.statusPanel}`}
      data-testid="status-panel"
      data-status={order.status}
    >
      <div className={s.cardHead}>
        <span className={s.orderNo}>{t('protocol.orderNo', { id: order.orderId })}</span>
        <StatusBadge status={order.status} type={side === 'buyer' ? 'purchase' : 'sell-history'} />
      </div>
      <p className={s.statusHelp} data-testid="status-help">
        {t(`protocol.statusHelp.${side}.${order.status}`)}
      </p>
      <StepTracker status={order.status} />
      {order.status === 'PAID' && order.releaseDeadline && (
        <p className={s.panelNote} data-testid="release-deadline">
          {t(`protocol.releaseBy.${side}`, { deadline: formatClock(order.releaseDeadline) })}
          {releaseLeft > 0 && ` · ${formatRemaining(releaseLeft)}`}
        </p>
      )}
      {disputeLater && (
        <p className={s.panelNote} data-testid="dispute-later">
          {t('protocol.dispute.later', { time: formatClock(disputeLater) })}
        </p>
      )}
      {order.dispute && <DisputeRecord dispute={order.dispute} />}
      {order.dispute?.resolution && (
        <DisputeOutcome orderId={order.orderId} resolution={order.dispute.resolution} side={side} />
      )}
    </section>
  );
}

function DisputeRecord({ dispute }: { dispute: OrderDispute }) {
  const { t } = useTranslation('trade');
  const rows = [
    ['buyer', dispute.buyerStatement],
    ['seller', dispute.sellerStatement],
    ['system', dispute.systemStatement],
  ] as const;
  return (
    <div className={s.disputeBox} data-testid="dispute-record">
      <div className={s.disputeHead}>
        {t('protocol.dispute.record', {
          who: t(`protocol.openedBy.${dispute.openedBy}`),
          reason: t(`protocol.reasons.${dispute.reason}`),
        })}
      </div>
      {rows.map(([who, text]) =>
        text ? (
          <p key={who} className={s.disputeText}>
            <strong>{t(`protocol.statementOf.${who}`)}</strong> {text}
          </p>
        ) : null,
      )}
    </div>
  );
}

/**
 * The operator's decision on a dispute, as both parties see it (DECISIONS §11): what became of the coins,
 * the operator's reason, how long the dispute took and when it ended, and where to ask about it.
 */
function DisputeOutcome(p: { orderId: number; resolution: DisputeResolution; side: OrderSide }) {
  const { t } = useTranslation('trade');
  const r = p.resolution;
  return (
    <div className={s.disputeBox} data-testid="dispute-outcome" data-outcome={r.outcome}>
      <div className={s.disputeHead}>{t(`protocol.resolution.${r.outcome}.${p.side}`)}</div>
      <p className={s.disputeText} data-testid="dispute-outcome-reason">
        <strong>{t('protocol.resolution.reason')}</strong> {r.reason ?? '-'}
      </p>
      <p className={s.disputeText} data-testid="dispute-outcome-took">
        {t('protocol.resolution.took', {
          duration: durationText(r.tookSec),
          at: formatClock(r.resolvedAt),
        })}
      </p>
      <p className={s.disputeText}>
        {t('protocol.resolution.ask', { id: p.orderId })}{' '}
        <Link
          to={paths.contact.path}
          style={{ display: 'inline-flex', alignItems: 'center', minHeight: 44 }}
          data-testid="dispute-outcome-contact"
        >
          {t('protocol.resolution.contact')}
        </Link>
      </p>
    </div>
  );
}
