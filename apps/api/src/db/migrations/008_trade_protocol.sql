-- The trade protocol (DECISIONS §11): PAID, DISPUTED and EXPIRED, the deadlines the timers act on, disputes,
-- one order per purchase phone check, and the sellers' maintained track record.
alter table buy_orders drop constraint buy_orders_status_check;
alter table buy_orders add constraint buy_orders_status_check
  check (status in ('REQUESTED', 'PAID', 'DISPUTED', 'COMPLETED', 'CANCELED', 'REJECTED', 'EXPIRED'));

alter table buy_orders
  -- REQUESTED becomes EXPIRED at this instant (created + ORDER_PAYMENT_WINDOW_SEC, or the reserved KST time + it)
  add column payment_deadline timestamptz,
  add column paid_at timestamptz,
  -- PAID becomes DISPUTED at this instant (paid_at + ORDER_RELEASE_WINDOW_SEC)
  add column release_deadline timestamptz,
  -- the buyer may open a dispute from this instant (paid_at + ORDER_DISPUTE_AFTER_SEC); the seller at once
  add column dispute_opens_at timestamptz,
  add column disputed_at timestamptz,
  add column expired_at timestamptz,
  -- when and by whom the order reached its final state (cancel/expiry limits and the sellers' track record)
  add column ended_at timestamptz,
  add column ended_by text check (ended_by in ('BUYER', 'SELLER', 'OPERATOR', 'SYSTEM')),
  add column dispute_reason text
    check (dispute_reason in ('PAYMENT_NOT_RECEIVED', 'COINS_NOT_RELEASED', 'WRONG_AMOUNT', 'THIRD_PARTY_PAYMENT', 'OTHER')),
  add column dispute_opened_by text check (dispute_opened_by in ('BUYER', 'SELLER', 'SYSTEM')),
  add column buyer_statement text,
  add column seller_statement text,
  add column system_statement text,
  -- the purchase phone check (sms_codes row) this order used: one order per check, decided by the index below
  add column purchase_check_id bigint references sms_codes (id);

-- Orders made before this migration: the default window from their reserved KST time or their creation.
update buy_orders set payment_deadline = coalesce(
  ((reserve_date || ' ' || reserve_time || ':00+09')::timestamptz),
  created_at) + interval '1800 seconds';
update buy_orders set ended_at = updated_at where status in ('COMPLETED', 'CANCELED', 'REJECTED');
alter table buy_orders alter column payment_deadline set not null;
alter table buy_orders add constraint buy_orders_paid_pair
  check ((paid_at is null) = (release_deadline is null) and (paid_at is null) = (dispute_opens_at is null));
alter table buy_orders add constraint buy_orders_dispute_pair
  check ((disputed_at is null) = (dispute_reason is null) and (disputed_at is null) = (dispute_opened_by is null));

create unique index buy_orders_purchase_check_key on buy_orders (purchase_check_id);
-- the timers' work lists: each is a range scan over the due part of a small partial index
create index buy_orders_payment_due_idx on buy_orders (payment_deadline) where status = 'REQUESTED';
create index buy_orders_release_due_idx on buy_orders (release_deadline) where status = 'PAID';
-- MAX_LIVE_ORDERS_PER_BUYER and BUYER_CANCELS_PER_DAY
create index buy_orders_buyer_live_idx on buy_orders (buyer_id) where status in ('REQUESTED', 'PAID', 'DISPUTED');
create index buy_orders_buyer_drops_idx on buy_orders (buyer_id, ended_at)
  where status = 'EXPIRED' or (status = 'CANCELED' and ended_by = 'BUYER');
-- the operators' dispute queue, oldest first
create index buy_orders_disputed_idx on buy_orders (disputed_at, id) where status = 'DISPUTED';

-- A seller's track record, written in the same transaction as each order ending (never a scan per card).
-- recent: the seller-decided endings of the last 30 days, newest last, at most 100, each
-- [ended epoch seconds, 1 = released by the seller | 0 = rejected or released by an operator, release seconds | -1].
create table seller_stats (
  member_id bigint primary key references members (id),
  completed_trades bigint not null default 0 check (completed_trades >= 0),
  recent jsonb not null default '[]'::jsonb,
  updated_at timestamptz not null default now()
);
insert into seller_stats (member_id, completed_trades)
  select seller_id, count(*) filter (where status = 'COMPLETED') from buy_orders
  where status in ('COMPLETED', 'REJECTED') group by seller_id;
update seller_stats s set recent = coalesce((
  select jsonb_agg(jsonb_build_array(
           extract(epoch from x.ended_at)::bigint,
           case when x.status = 'COMPLETED' then 1 else 0 end,
           case when x.status = 'COMPLETED' then extract(epoch from x.completed_at - x.created_at)::bigint else -1 end)
         order by x.ended_at)
  from (select * from buy_orders o
        where o.seller_id = s.member_id and o.status in ('COMPLETED', 'REJECTED')
          and o.ended_at > now() - interval '30 days'
        order by o.ended_at desc limit 100) x), '[]'::jsonb);
