-- The ledger check as a background job (issue 27, DECISIONS §4): GET /ops/api/v1/ledger/check answers the
-- stored result instead of reading every posting inside the request.
--
-- An incremental pass verifies the postings after `verified_through` (final ones only: see `checkpoint_*`) in
-- chunks by id: every entry they belong to sums to zero per coin, each posting's coin is its account's, and each
-- touched account's balance equals its running sum (`ledger_check_accounts.posted`, the postings through
-- `verified_through`) plus the postings after it. A periodic full pass recomputes those sums from posting 1 in
-- chunks (`ledger_check_full_sums`), compares every account, the per-coin totals and the modules' invariants,
-- and then replaces the running sums. Both run on the instance holding the `ledger-check` lease (job_leases).

-- One row: where the check stands, its open problems and the full pass in progress.
create table ledger_check_state (
  id int primary key check (id = 1),
  -- postings with id <= this are verified and summed into ledger_check_accounts
  verified_through bigint not null default 0,
  -- max(posting id) seen at checkpoint_at: once LEDGER_CHECK_SETTLE_MS passed, every id up to it is final
  checkpoint_id bigint,
  checkpoint_at timestamptz,
  -- problems found since the last full pass began (the full pass replaces them with its own findings)
  problems jsonb not null default '[]'::jsonb,
  accounts bigint not null default 0,
  entries bigint not null default 0,
  postings bigint not null default 0,
  last_incremental_at timestamptz,
  last_full_at timestamptz,
  full_requested boolean not null default false,
  -- a full pass in progress: it verifies postings (0, full_through], done up to full_position
  full_through bigint,
  full_position bigint,
  full_started_at timestamptz,
  full_problems jsonb not null default '[]'::jsonb,
  full_entries bigint not null default 0,
  full_postings bigint not null default 0
);
insert into ledger_check_state (id) values (1);

-- Per account, the sum of its postings through ledger_check_state.verified_through; `dirty` = touched since the
-- last balance comparison.
create table ledger_check_accounts (
  account_id bigint primary key references ledger_accounts (id),
  posted numeric(38, 8) not null,
  dirty boolean not null default false
);
create index ledger_check_accounts_dirty_idx on ledger_check_accounts (account_id) where dirty;

-- The running full pass's sums, through its full_position.
create table ledger_check_full_sums (
  account_id bigint primary key references ledger_accounts (id),
  posted numeric(38, 8) not null,
  dirty boolean not null default false
);

-- Finished passes (the last 200 kept): what each verified and found.
create table ledger_check_runs (
  id bigint generated always as identity primary key,
  kind text not null check (kind in ('INCREMENTAL', 'FULL')),
  ok boolean not null,
  problems jsonb not null,
  from_posting bigint not null,
  through_posting bigint not null,
  postings bigint not null,
  started_at timestamptz not null,
  finished_at timestamptz not null default now()
);

-- One live event row and one NOTIFY per order state change, however many are told (issue 27): the row
-- (type 'change', member_id null) lists the members told in `members` and carries its parts
-- {parts: [{m: member id | null (every operator), t: event name, d: data}]}; each API instance's hub sends each
-- stream the parts meant for it, every part with the row's id (a resume point as before). The notifications the
-- change raises are inserted with their own per-row event switched off (p2p.fold_events) and ride in the row.
-- Before: 2 order + 2 message + 1 per notification + 1 operators' event = 6 rows and 6 NOTIFYs per purchase.
alter table member_events add column members bigint[];
alter table member_events drop constraint member_events_type_check;
alter table member_events add constraint member_events_type_check
  check (type in ('order', 'message', 'notification', 'ops', 'transfer', 'change'));
create index member_events_members_idx on member_events using gin (members);

create or replace function trade_room_notification_event() returns trigger language plpgsql as $$
begin
  if current_setting('p2p.fold_events', true) = 'on' then
    return new;
  end if;
  insert into member_events (member_id, type, data) values (new.member_id, 'notification',
    jsonb_build_object('id', new.id, 'kind', new.kind, 'orderId', new.order_id, 'listingId', new.listing_id));
  return new;
end $$;

-- Inserts one notification of an order change and answers its live-event part.
create function trade_room_order_notification(m bigint, k text, order_id bigint, d jsonb) returns jsonb
language plpgsql as $$
declare
  nid bigint;
begin
  insert into notifications (member_id, kind, order_id, data) values (m, k, order_id, d) returning id into nid;
  return jsonb_build_object('m', m, 't', 'notification',
    'd', jsonb_build_object('id', nid, 'kind', k, 'orderId', order_id, 'listingId', null));
end $$;

drop trigger buy_orders_ops_queue on buy_orders;
drop function ops_queue_order_added();

-- One order state change (010's rules unchanged): a system message, the notifications of DECISIONS §12, and
-- one event row for both parties and, for a new order and disputes, the operators' queue.
create or replace function trade_room_order_changed() returns trigger language plpgsql as $$
declare
  old_status text := case when tg_op = 'INSERT' then null else old.status end;
  k text;
  who bigint[] := array[]::bigint[];
  m bigint;
  ops text;
  parts jsonb := '[]'::jsonb;
  notes jsonb := '[]'::jsonb;
  st jsonb := jsonb_build_object('id', new.id, 'status', new.status);
  msg jsonb := jsonb_build_object('orderId', new.id);
begin
  if tg_op = 'UPDATE' and old.status = new.status then
    return new;
  end if;
  insert into order_messages (order_id, author_role, kind, status)
    values (new.id, 'SYSTEM', 'SYSTEM', new.status);
  perform set_config('p2p.fold_events', 'on', true);
  if tg_op = 'INSERT' then
    ops := 'ORDER_REQUESTED';
  end if;

  if old_status = 'DISPUTED' then
    -- an operator resolved the dispute: both parties hear it; the buyer also hears of the completion
    foreach m in array array[new.buyer_id, new.seller_id] loop
      notes := notes || trade_room_order_notification(m, 'DISPUTE_RESOLVED', new.id,
        jsonb_build_object('status', new.status));
    end loop;
    ops := 'DISPUTE_RESOLVED';
    if new.status = 'COMPLETED' then
      notes := notes || trade_room_order_notification(new.buyer_id, 'ORDER_COMPLETED', new.id, '{}'::jsonb);
    end if;
  else
    case new.status
      when 'REQUESTED' then k := 'ORDER_REQUESTED'; who := array[new.seller_id];
      when 'PAID' then k := 'ORDER_PAID'; who := array[new.seller_id];
      when 'COMPLETED' then k := 'ORDER_COMPLETED'; who := array[new.buyer_id];
      when 'EXPIRED' then k := 'ORDER_EXPIRED'; who := array[new.buyer_id, new.seller_id];
      when 'REJECTED' then k := 'ORDER_REJECTED'; who := array[new.buyer_id];
      when 'CANCELED' then
        k := 'ORDER_CANCELED';
        who := case when new.ended_by = 'BUYER' then array[new.seller_id]
                    else array[new.buyer_id, new.seller_id] end;
      when 'DISPUTED' then
        k := 'DISPUTE_OPENED';
        who := case new.dispute_opened_by when 'BUYER' then array[new.seller_id]
                                          when 'SELLER' then array[new.buyer_id]
                                          else array[new.buyer_id, new.seller_id] end;
        ops := 'DISPUTE_OPENED';
      else
        k := null;
    end case;
    if k is not null then
      foreach m in array who loop
        notes := notes || trade_room_order_notification(m, k, new.id, '{}'::jsonb);
      end loop;
    end if;
  end if;
  perform set_config('p2p.fold_events', '', true);

  -- per party as before: the order's status, the new system message, then its notifications
  foreach m in array array[new.buyer_id, new.seller_id] loop
    parts := parts || jsonb_build_array(jsonb_build_object('m', m, 't', 'order', 'd', st),
                                        jsonb_build_object('m', m, 't', 'message', 'd', msg));
    parts := parts || coalesce((select jsonb_agg(n) from jsonb_array_elements(notes) n
                                where (n->>'m')::bigint = m), '[]'::jsonb);
  end loop;
  if ops is not null then
    parts := parts || jsonb_build_array(jsonb_build_object('m', null, 't', 'ops',
      'd', jsonb_build_object('kind', ops, 'orderId', new.id)));
  end if;
  insert into member_events (member_id, members, type, data)
    values (null, array[new.buyer_id, new.seller_id], 'change', jsonb_build_object('parts', parts));
  return new;
end $$;
