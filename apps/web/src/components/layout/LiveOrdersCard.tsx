import type { OrderHistoryItem, Page } from '@p2p/contract';
import { LIVE_ORDER_STATUSES } from '@p2p/contract/enums.ts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { type DetailType, StatusBadge } from '../../features/trade';
import { api } from '../../lib/api-client';
import { formatQty, formatWon } from '../../lib/format';
import { CoinIcon } from '../ui/CoinIcon';
import s from './layout.module.css';

interface LiveOrder {
  order: OrderHistoryItem;
  type: Extract<DetailType, 'purchase' | 'sell-history'>;
}

const isLive = (o: OrderHistoryItem) => (LIVE_ORDER_STATUSES as readonly string[]).includes(o.status);

/** The member's live orders (REQUESTED, PAID, DISPUTED) as buyer and seller, newest first, at most 3. */
async function liveOrders(): Promise<LiveOrder[]> {
  const [bought, sold] = await Promise.all([
    api.get<Page<OrderHistoryItem>>('/my/buy-history'),
    api.get<Page<OrderHistoryItem>>('/my/sell-history'),
  ]);
  const all: LiveOrder[] = [
    ...bought.list.filter(isLive).map((order) => ({ order, type: 'purchase' as const })),
    ...sold.list.filter(isLive).map((order) => ({ order, type: 'sell-history' as const })),
  ];
  return all.sort((a, b) => b.order.createdAt.localeCompare(a.order.createdAt)).slice(0, 3);
}

/**
 * Home's "진행 중인 주문" card for a signed-in member (DECISIONS §11): the orders that still need someone to
 * act, one tap from their detail, as Korean finance apps put them first. Nothing when there are none.
 */
export function LiveOrdersCard() {
  const { t } = useTranslation('home');
  const q = useQuery({ queryKey: ['home-live-orders'], queryFn: liveOrders, staleTime: 10_000 });
  const list = q.data ?? [];
  if (list.length === 0) return null;
  return (
    <section className={s.liveOrders} aria-labelledby="live-orders-title" data-testid="live-orders">
      <h2 id="live-orders-title" className={s.liveOrdersTitle}>
        {t('liveOrders.title')}
      </h2>
      <ul className={s.liveOrdersList}>
        {list.map(({ order, type }) => (
          <li key={`${type}-${order.orderId}`}>
            <Link
              to={`${paths.viewDetails.path}?id=${order.orderId}&type=${type}`}
              className={s.liveOrder}
              data-testid="live-order"
            >
              <CoinIcon coin={order.coinCode} size={28} />
              <span className={s.liveOrderText}>
                <span className={s.liveOrderRole}>
                  {t(type === 'purchase' ? 'liveOrders.buy' : 'liveOrders.sell')}
                </span>
                <span>
                  {formatQty(order.requestQty)} {order.coinCode} ·{' '}
                  {t('home:prices.won', { value: formatWon(order.requestKrwAmount) })}
                </span>
              </span>
              <StatusBadge status={order.status} type={type} />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
