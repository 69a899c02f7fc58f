import type { Transfer } from '@p2p/contract';
import { shortenAddress } from '@p2p/contract/money.ts';
import { useTranslation } from 'react-i18next';
import { formatQty } from '../../../lib/format';
import { formatDateTime } from '../../../lib/format-time';
import { notify } from '../../../lib/toast';
import w from '../wallet.module.css';

/** A deposit the chain watcher found (it carries its confirmation count), as opposed to an operator's credit. */
export function isChainDeposit(tr: Transfer): tr is Transfer & { requiredConfirmations: number } {
  return tr.type === 'DEPOSIT' && tr.requiredConfirmations !== null;
}

/**
 * What the row was for the member: a P2P sale out of escrow (SALE, not a withdrawal), a P2P purchase's
 * delivery (PURCHASE), else a withdrawal or a deposit.
 */
function kindOf(tr: Transfer): 'SALE' | 'PURCHASE' | Transfer['type'] {
  if (tr.buyOrderId === null) return tr.type;
  return tr.type === 'WITHDRAW' ? 'SALE' : 'PURCHASE';
}

/** Credited deposits in green, deposits that never reached the balance struck through, the rest plain. */
function amountTone(tr: Transfer): string {
  if (tr.status === 'DROPPED' || tr.status === 'BELOW_MINIMUM') return w.notCredited ?? '';
  return tr.type === 'DEPOSIT' && tr.status === 'COMPLETED' ? (w.plus ?? '') : (w.minus ?? '');
}

/** An external withdrawal (DECISIONS §18): 대기 / 승인 / 전송 중 / 완료 / 실패 with its TxID and explorer link. */
function isExternalWithdrawal(tr: Transfer): boolean {
  return tr.type === 'WITHDRAW' && tr.destType === 'EXTERNAL';
}

/** What an external withdrawal waits for, while it is not done. */
function WithdrawalNote({ tr }: { tr: Transfer }) {
  const { t } = useTranslation('wallet');
  if (!['PENDING', 'APPROVED', 'BROADCAST', 'FAILED'].includes(tr.status)) return null;
  return (
    <p className={w.transferNote} data-testid="withdrawal-note">
      {t(`transfer.withdrawHint.${tr.status}`)}
    </p>
  );
}

/** The TxID, shortened, with a copy button (44 px) that says whether the copy worked, and its explorer link. */
function TxidLine({ txid, explorerUrl }: { txid: string; explorerUrl?: string | null }) {
  const { t } = useTranslation('wallet');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(txid);
      notify.success(t('transfer.txidCopied'));
    } catch {
      notify.error(t('transfer.txidCopyFailed'));
    }
  };
  return (
    <div className={w.txLine}>
      <span className={w.mono} title={txid} data-testid="transfer-txid">
        TxID {shortenAddress(txid)}
      </span>
      <button
        type="button"
        className={w.copyButton}
        onClick={() => void copy()}
        aria-label={t('transfer.copyTxid')}
        data-testid="transfer-txid-copy"
      >
        {t('transfer.copy')}
      </button>
      {explorerUrl && (
        <a
          className={w.copyButton}
          href={explorerUrl}
          target="_blank"
          rel="noopener noreferrer"
          data-testid="transfer-explorer"
        >
          {t('transfer.explorer')}
        </a>
      )}
    </div>
  );
}

/**
 * Where a chain deposit stands (DECISIONS §17): a bar and "n/m" while it confirms and once credited (the same
 * height in both, so the row does not jump when it completes), or what happened and what to do when it was
 * dropped by a reorganization or is below the coin's minimum.
 */
function ChainProgress({ tr }: { tr: Transfer & { requiredConfirmations: number } }) {
  const { t } = useTranslation('wallet');
  if (tr.status === 'DROPPED' || tr.status === 'BELOW_MINIMUM') {
    return (
      <p className={w.transferNote} data-testid="transfer-note">
        {t(`transfer.explain.${tr.status}`)}
      </p>
    );
  }
  const required = tr.requiredConfirmations;
  const done = tr.status === 'COMPLETED';
  const count = done ? required : Math.min(tr.confirmations ?? 0, required);
  const label = t('transfer.confirmations', { count, required });
  return (
    <div className={w.progressBlock}>
      <div className={w.progressLine}>
        <div
          className={w.progressTrack}
          role="progressbar"
          aria-label={t('transfer.progressLabel')}
          aria-valuemin={0}
          aria-valuemax={required}
          aria-valuenow={count}
          aria-valuetext={label}
        >
          <div
            className={`${w.progressBar} ${done ? w.progressDone : ''}`}
            style={{ width: `${required > 0 ? (count / required) * 100 : 100}%` }}
          />
        </div>
        <span className={w.progressCount} data-testid="transfer-confirmations">
          {label}
        </span>
      </div>
      <span className={w.progressHint}>
        {done ? t('transfer.creditedHint') : t('transfer.confirmingHint', { required })}
      </span>
    </div>
  );
}

/**
 * One row of a wallet's history: type and status, time, address, amount and coin; a chain deposit adds its
 * TxID (copyable) and its confirmations (DECISIONS §17). `data-status` and `data-txid` let tests find it.
 */
export function TransferRow({ tr }: { tr: Transfer }) {
  const { t } = useTranslation('wallet');
  const incoming = tr.type === 'DEPOSIT';
  const chain = isChainDeposit(tr);
  const payout = isExternalWithdrawal(tr);
  const status = payout
    ? t(`transfer.withdrawStatus.${tr.status}`)
    : chain && tr.status === 'PENDING'
      ? t('transfer.confirming')
      : t(`transfer.status.${tr.status}`);
  return (
    <div
      className={w.transfer}
      data-testid="transfer-row"
      data-type={tr.type}
      data-status={tr.status}
      data-txid={tr.txid ?? undefined}
    >
      <div className={w.transferTop}>
        <div className={w.transferMain}>
          <strong data-testid="transfer-kind">
            {t(`transfer.type.${kindOf(tr)}`)} · {status}
          </strong>
          <span className={w.muted}>{formatDateTime(tr.createdAt)}</span>
          {tr.address && (
            <span className={w.mono}>
              {shortenAddress(tr.address)}
              {tr.destTag !== null && ` · ${t('transferTag', { tag: tr.destTag })}`}
            </span>
          )}
        </div>
        <span className={`${w.transferAmount} ${amountTone(tr)}`} data-testid="transfer-amount">
          {incoming ? '+' : '-'}
          {formatQty(tr.amount, 8)} {tr.coinCode}
        </span>
      </div>
      {tr.status === 'REJECTED' && tr.reason && (
        <p className={w.transferNote} data-testid="transfer-reason">
          {t('transfer.rejectedReason', { reason: tr.reason })}
        </p>
      )}
      {(chain || payout) && tr.txid && <TxidLine txid={tr.txid} explorerUrl={tr.explorerUrl} />}
      {chain && <ChainProgress tr={tr} />}
      {payout && <WithdrawalNote tr={tr} />}
    </div>
  );
}
