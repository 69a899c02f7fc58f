import type { OpsOrderParty } from '@p2p/contract';
import { formatKrw } from '@p2p/contract/money.ts';
import { formatPhone } from '@p2p/contract/phone.ts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/Button';
import { errorText } from '../../../lib/errors';
import { formatTime } from '../../../lib/format-time';
import { OrderChat } from '../../trade';
import { OPS_CHAT_POLL_MS, opsChatClient } from '../api/chat';
import { useOpsOrder } from '../api/disputes';
import { cancelOrder, completeOrder, type OpsOrder } from '../api/orders';
import { StatusBadge } from '../components/StatusBadge';
import { Mono, PageTitle } from '../components/Table';
import { reasonField, useConfirmAction } from '../hooks/use-confirm-action';
import s from '../ops.module.css';
import { opsPaths } from '../paths';
import d from './disputes.module.css';

/**
 * One dispute (DECISIONS §11): both statements (and the system's when the release deadline passed), the
 * parties' names and bank accounts to compare with the deposit, the timeline, and the two resolutions,
 * each with a reason for the audit log and a confirmation: release to the buyer (complete {reason, txid})
 * or return to the seller (cancel {reason}).
 */
export default function DisputeDetail({ orderId }: { orderId: number }) {
  const { t } = useTranslation(['ops']);
  const q = useOpsOrder(orderId);
  const { confirm, dialog } = useConfirmAction();
  const o = q.data;
  const back = (
    <Link className={d.back} to={opsPaths.disputes} data-testid="dispute-back">
      ← {t('ops:disputes.backToQueue')}
    </Link>
  );
  if (!o) {
    return (
      <>
        {back}
        <p className={q.isError ? s.failure : s.muted}>
          {q.isError ? errorText(q.error, 'ops:errors.generic', 'ops') : t('common:loading')}
        </p>
      </>
    );
  }
  const facts = [
    { label: t('ops:orders.id'), value: `#${o.orderId}` },
    { label: t('ops:orders.qty'), value: `${o.requestQty} ${o.coinCode}` },
    { label: t('ops:orders.krw'), value: `${formatKrw(o.requestKrwAmount)} ${t('ops:won')}` },
    { label: t('ops:orders.buyer'), value: `${o.buyer.name} (${o.buyer.nickname})` },
    { label: t('ops:orders.seller'), value: `${o.seller.name} (${o.seller.nickname})` },
  ];
  const release = () =>
    confirm({
      title: t('ops:disputes.releaseTitle', { id: o.orderId }),
      details: facts,
      note: t('ops:disputes.releaseNote', { qty: `${o.requestQty} ${o.coinCode}`, buyer: o.buyer.nickname }),
      confirmLabel: t('ops:disputes.release'),
      tone: 'danger',
      fields: [reasonField(t), { name: 'txid', kind: 'txid', label: t('ops:fields.orderTxid') }],
      run: (v) =>
        completeOrder(o.orderId, v.reason ?? '', v.txid ?? '').then(() =>
          t('ops:disputes.released', { id: o.orderId }),
        ),
    });
  const giveBack = () =>
    confirm({
      title: t('ops:disputes.returnTitle', { id: o.orderId }),
      details: facts,
      note: t('ops:disputes.returnNote', { seller: o.seller.nickname }),
      confirmLabel: t('ops:disputes.return'),
      tone: 'danger',
      fields: [reasonField(t)],
      run: (v) =>
        cancelOrder(o.orderId, v.reason ?? '').then(() => t('ops:disputes.returned', { id: o.orderId })),
    });
  const open = o.status === 'DISPUTED';
  return (
    <div data-testid="dispute-detail" data-status={o.status}>
      {back}
      <PageTitle
        title={t('ops:disputes.detailTitle', { id: o.orderId })}
        sub={
          o.dispute
            ? `${t(`ops:disputes.reasons.${o.dispute.reason}`)} · ${t(`ops:disputes.openedBy.${o.dispute.openedBy}`)}`
            : undefined
        }
      >
        <StatusBadge status={o.status} />
      </PageTitle>
      <div className={d.grid}>
        <section className={d.panel} aria-labelledby="statements">
          <h2 id="statements" className={d.panelTitle}>
            {t('ops:disputes.statements')}
          </h2>
          <Statement who={t('ops:disputes.buyerSays')} text={o.dispute?.buyerStatement} testId="st-buyer" />
          <Statement
            who={t('ops:disputes.sellerSays')}
            text={o.dispute?.sellerStatement}
            testId="st-seller"
          />
          {o.dispute?.systemStatement && (
            <Statement
              who={t('ops:disputes.systemSays')}
              text={o.dispute.systemStatement}
              testId="st-system"
            />
          )}
        </section>
        <section className={d.panel} aria-labelledby="timeline">
          <h2 id="timeline" className={d.panelTitle}>
            {t('ops:disputes.timeline')}
          </h2>
          <Timeline o={o} />
        </section>
        <Party title={t('ops:disputes.buyerParty')} p={o.buyer} testId="party-buyer" />
        <Party title={t('ops:disputes.sellerParty')} p={o.seller} testId="party-seller" payIn />
      </div>
      <div className={d.chat}>
        <OrderChat orderId={o.orderId} side="operator" client={opsChatClient} pollMs={OPS_CHAT_POLL_MS} />
      </div>
      <section className={d.panel}>
        <h2 className={d.panelTitle}>{t('ops:disputes.resolve')}</h2>
        <p className={`${s.muted} ${d.hint}`}>
          {open ? t('ops:disputes.resolveHint') : t('ops:disputes.resolved')}
        </p>
        <div className={d.resolve}>
          <Button onClick={release} disabled={!open} data-testid="dispute-release">
            {t('ops:disputes.release')}
          </Button>
          <Button variant="outline" onClick={giveBack} disabled={!open} data-testid="dispute-return">
            {t('ops:disputes.return')}
          </Button>
        </div>
        {o.reason && (
          <p className={s.note} data-testid="dispute-outcome">
            {t('ops:disputes.outcome', { reason: o.reason })} {o.txid && <Mono>{o.txid}</Mono>}
          </p>
        )}
      </section>
      {dialog}
    </div>
  );
}

function Statement({ who, text, testId }: { who: string; text: string | null | undefined; testId: string }) {
  const { t } = useTranslation(['ops']);
  return (
    <p className={`${d.statement} ${text ? '' : d.statementMissing}`} data-testid={testId}>
      <span className={d.who}>{who}</span>
      {text ?? t('ops:disputes.noStatement')}
    </p>
  );
}

function Party({
  title,
  p,
  testId,
  payIn,
}: {
  title: string;
  p: OpsOrderParty;
  testId: string;
  payIn?: boolean;
}) {
  const { t } = useTranslation(['ops']);
  return (
    <section className={d.panel} data-testid={testId}>
      <h2 className={d.panelTitle}>{title}</h2>
      <dl className={s.facts}>
        <div className={s.fact}>
          <dt>{payIn ? t('ops:disputes.realNameHolder') : t('ops:disputes.realName')}</dt>
          <dd>{p.name}</dd>
        </div>
        <div className={s.fact}>
          <dt>{t('ops:disputes.nickname')}</dt>
          <dd>{p.nickname}</dd>
        </div>
        <div className={s.fact}>
          <dt>{t('ops:disputes.phone')}</dt>
          <dd>{formatPhone(p.phone)}</dd>
        </div>
        <div className={s.fact}>
          <dt>{payIn ? t('ops:disputes.payInAccount') : t('ops:disputes.ownAccount')}</dt>
          <dd>{p.bankName ? `${p.bankName} ${p.accountNo ?? ''}` : t('ops:disputes.noAccount')}</dd>
        </div>
      </dl>
    </section>
  );
}

function Timeline({ o }: { o: OpsOrder }) {
  const { t } = useTranslation(['ops']);
  const rows = [
    ['requested', o.createdAt],
    ['paid', o.paidAt],
    ['releaseDeadline', o.releaseDeadline],
    ['disputed', o.disputedAt],
    ['ended', o.completedAt],
  ] as const;
  return (
    <ol className={d.timeline} data-testid="dispute-timeline">
      {rows.map(([k, at]) =>
        at ? (
          <li key={k}>
            <span>{t(`ops:disputes.at.${k}`)}</span>
            <time dateTime={at}>{formatTime(at)}</time>
          </li>
        ) : null,
      )}
    </ol>
  );
}
