-- Sell listings and buy orders (DECISIONS §4). Quantities are NUMERIC(38,8) coin amounts; won are integers.
create table sell_listings (
  id bigint generated always as identity primary key,
  seller_id bigint not null references members (id),
  wallet_id bigint not null references wallets (id),
  coin text not null check (coin in ('BTC', 'ETH', 'XRP', 'TRX')),
  min_qty numeric(38, 8) not null check (min_qty > 0),
  max_qty numeric(38, 8) not null check (max_qty >= min_qty),
  -- maxQty minus the quantity of REQUESTED and COMPLETED orders; changed only under the row lock
  remaining_qty numeric(38, 8) not null check (remaining_qty >= 0 and remaining_qty <= max_qty),
  unit_price_krw bigint not null check (unit_price_krw > 0),
  bank_name text not null,
  account_no text not null,
  status text not null default 'PENDING_REVIEW'
    check (status in ('PENDING_REVIEW', 'OPEN', 'PAUSED', 'CLOSED', 'REJECTED')),
  reject_reason text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  closed_at timestamptz
);
-- One active listing per seller and coin: decided by this index, not by a prior check (409 DUPLICATE_SELLER).
create unique index sell_listings_one_active_key on sell_listings (seller_id, coin)
  where status in ('PENDING_REVIEW', 'OPEN', 'PAUSED');
-- Keyset pagination of the trade list: every page is one index range scan, however deep.
-- CREATED_DESC walks (status[, coin], id) backwards; PRICE_ASC/PRICE_DESC walk (status[, coin], price, id).
create index sell_listings_status_id_idx on sell_listings (status, id);
create index sell_listings_status_coin_id_idx on sell_listings (status, coin, id);
create index sell_listings_status_price_idx on sell_listings (status, unit_price_krw, id);
create index sell_listings_status_coin_price_idx on sell_listings (status, coin, unit_price_krw, id);
create index sell_listings_seller_idx on sell_listings (seller_id, id);
-- The trade list hides suspended sellers (DECISIONS §8) with NOT IN over this (nearly empty) index.
create index members_suspended_idx on members (id) where status = 'SUSPENDED';

create table buy_orders (
  id bigint generated always as identity primary key,
  listing_id bigint not null references sell_listings (id),
  buyer_id bigint not null references members (id),
  seller_id bigint not null references members (id),
  coin text not null check (coin in ('BTC', 'ETH', 'XRP', 'TRX')),
  request_qty numeric(38, 8) not null check (request_qty > 0),
  request_krw bigint not null check (request_krw > 0),
  unit_price_krw bigint not null check (unit_price_krw > 0),
  -- the per-trade fee (TRADE_FEE_BPS of request_qty, rounded down) kept from the delivery; set at completion
  fee_qty numeric(38, 8) not null default 0 check (fee_qty >= 0 and fee_qty < request_qty),
  dest_type text not null check (dest_type in ('INTERNAL', 'EXTERNAL')),
  dest_wallet_id bigint references wallets (id),
  dest_address text not null,
  reserve_date text,
  reserve_time text,
  status text not null default 'REQUESTED' check (status in ('REQUESTED', 'COMPLETED', 'CANCELED', 'REJECTED')),
  txid text,
  reason text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  completed_at timestamptz,
  constraint buy_orders_not_self check (buyer_id <> seller_id),
  constraint buy_orders_internal_wallet check ((dest_type = 'INTERNAL') = (dest_wallet_id is not null)),
  constraint buy_orders_reserve_pair check ((reserve_date is null) = (reserve_time is null))
);
create index buy_orders_buyer_idx on buy_orders (buyer_id, id);
create index buy_orders_seller_idx on buy_orders (seller_id, id);
create index buy_orders_listing_idx on buy_orders (listing_id, status);
create index buy_orders_status_idx on buy_orders (status, id);
-- the home carousel counts COMPLETED orders of the last 7 days per listing
create index buy_orders_completed_idx on buy_orders (completed_at, listing_id) where status = 'COMPLETED';
