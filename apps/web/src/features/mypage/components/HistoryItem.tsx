import type { Coin } from '@p2p/contract/enums.ts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/Button';
import { cardClassName } from '../../../components/ui/Card';
import { CoinIcon } from '../../../components/ui/CoinIcon';
import { paths } from '../../../config/paths';
import { formatDateTime } from '../../../lib/format-time';
import { type DetailType, StatusBadge } from '../../trade';
import m from '../mypage.module.css';

interface Props {
  id: number;
  type: DetailType;
  coin: Coin;
  status: string;
  /** Completed items show completion time, others creation time (SPEC §4). */
  createdAt: string;
  completedAt?: string | null;
  rows: { label: string; value: string }[];
  /** A line under the rows, e.g. what a paused listing means. */
  note?: ReactNode;
  /** A button beside the detail button (the seller's 자리 비움 / 다시 판매하기). */
  action?: ReactNode;
}

/** One row of a history tab: coin, status, key values, time and the detail button to /view_details. */
export function HistoryItem({ id, type, coin, status, createdAt, completedAt, rows, note, action }: Props) {
  const { t } = useTranslation('mypage');
  const navigate = useNavigate();
  const done = status === 'COMPLETED' && completedAt;
  const detail = (
    <Button
      variant="outline"
      size="small"
      block
      onClick={() => navigate(`${paths.viewDetails.path}?id=${id}&type=${type}`)}
      data-testid="history-detail"
    >
      {t('history.detail')}
    </Button>
  );
  return (
    <article
      className={`${cardClassName} ${m.item}`}
      data-testid={`history-${type}`}
      data-id={id}
      data-status={status}
    >
      <div className={m.head}>
        <div className={m.coin}>
          <CoinIcon coin={coin} size={28} />
          <div>
            <div className={m.coinName}>{t(`common:coins.${coin}`)}</div>
            <div className={m.sub}>
              {t(done ? 'history.completedAt' : 'history.createdAt')}{' '}
              {formatDateTime(done ? completedAt : createdAt)}
            </div>
          </div>
        </div>
        <StatusBadge status={status} type={type} />
      </div>
      {rows.map((r) => (
        <div className={m.kv} key={r.label}>
          <span className={m.label}>{r.label}</span>
          <span className={m.value}>{r.value}</span>
        </div>
      ))}
      {note}
      {action ? (
        <div className={m.buttons2}>
          {action}
          {detail}
        </div>
      ) : (
        detail
      )}
    </article>
  );
}
