import type { Notification } from '@p2p/contract/trade-room.ts';
import type { TFunction } from 'i18next';
import { formatQty, formatWon } from '../../lib/format';
import { durationText } from '../../lib/format-time';

/**
 * The text key of a notification: a resolved dispute says its outcome (DECISIONS §11: {status} COMPLETED
 * or CANCELED, with the operator's reason and the time it took); other kinds their own text.
 */
function kindKey(x: Notification): string {
  const status = x.data.status;
  if (x.kind === 'DISPUTE_RESOLVED' && (status === 'COMPLETED' || status === 'CANCELED')) {
    return `DISPUTE_RESOLVED_${status}`;
  }
  return x.kind;
}

/**
 * The text of a notification, specific about who, what and how much (DECISIONS §12): the other party's
 * nickname, the coin and quantity, the won, the order number; the listing's coin and price. Texts in
 * common:notifications.kinds.<KIND>.
 */
export function notificationText(x: Notification, t: TFunction): string {
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  return t(`common:notifications.kinds.${kindKey(x)}`, {
    orderId: x.orderId ?? '',
    who: x.order?.counterpart ?? '',
    qty: x.order ? formatQty(x.order.requestQty) : '',
    coin: x.order?.coinCode ?? x.listing?.coinCode ?? str(x.data.coinCode),
    krw: x.order ? formatWon(x.order.requestKrwAmount) : '',
    price: x.listing ? formatWon(x.listing.unitPriceKrw) : '',
    reason: str(x.data.reason),
    amount: str(x.data.amount),
    coinCode: str(x.data.coinCode),
    took: typeof x.data.tookSec === 'number' ? durationText(x.data.tookSec) : '-',
  });
}
