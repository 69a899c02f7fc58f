import type { SelectQueryBuilder } from 'kysely';
import type { DbOrTx } from '../../db/client.ts';
import type { DB } from '../../db/schema.ts';

/**
 * Selects buy orders with their listing, the seller's wallet address, both parties and the seller's
 * maintained track record (DECISIONS §11): every order screen, history and the operator's views read this.
 * It joins `sell_listings` and `seller_stats` (listings module), `wallets` (wallets) and `members`
 * (identity) in the one statement on purpose: asking each owner in turn would cost four more round trips
 * per order shown, on the trade room's hottest reads. Read only; the columns named here are part of those
 * modules' contract, and this is the one place outside them that names them.
 */
export function orderWithParties(db: DbOrTx) {
  return withParties(db.selectFrom('buy_orders as o'));
}

/** A buy-order row source named `o`: the table, or the rows an insert returns (repo.ts insertBuyOrder). */
export type OrderSource = SelectQueryBuilder<DB & { o: DB['buy_orders'] }, 'o', Record<never, never>>;

/** The joins and columns of orderWithParties over any order source. */
export function withParties(from: OrderSource) {
  return from
    .innerJoin('sell_listings as l', 'l.id', 'o.listing_id')
    .innerJoin('wallets as w', 'w.id', 'l.wallet_id')
    .innerJoin('members as s', 's.id', 'o.seller_id')
    .innerJoin('members as b', 'b.id', 'o.buyer_id')
    .leftJoin('seller_stats as st', 'st.member_id', 'o.seller_id')
    .select([
      'o.id',
      'o.listing_id',
      'o.buyer_id',
      'o.seller_id',
      'o.coin',
      'o.request_qty',
      'o.request_krw',
      'o.unit_price_krw',
      'o.fee_qty',
      'o.status',
      'o.dest_type',
      'o.dest_address',
      'o.reserve_date',
      'o.reserve_time',
      'o.txid',
      'o.reason',
      'o.created_at',
      'o.completed_at',
      'o.payment_deadline',
      'o.paid_at',
      'o.release_deadline',
      'o.dispute_opens_at',
      'o.disputed_at',
      'o.expired_at',
      'o.ended_at',
      'o.ended_by',
      'o.dispute_reason',
      'o.dispute_opened_by',
      'o.buyer_statement',
      'o.seller_statement',
      'o.system_statement',
      'st.completed_trades as seller_completed_trades',
      'st.recent as seller_recent',
      's.created_at as seller_since',
      'l.bank_name',
      'l.account_no',
      'w.address as seller_address',
      's.login_id as seller_login_id',
      's.nickname as seller_nickname',
      's.name as seller_name',
      's.country_code as seller_country',
      's.phone_e164 as seller_phone',
      'b.login_id as buyer_login_id',
      'b.nickname as buyer_nickname',
      'b.name as buyer_name',
      'b.country_code as buyer_country',
      'b.phone_e164 as buyer_phone',
      'b.bank_name as buyer_bank_name',
      'b.account_no as buyer_account_no',
    ]);
}

export type OrderRow = Awaited<ReturnType<ReturnType<typeof orderWithParties>['executeTakeFirstOrThrow']>>;
