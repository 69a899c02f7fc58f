-- The trade room (DECISIONS §12): order chat with images, the members' live event backlog,
-- notifications with read state, SMS alert settings and Web Push subscriptions.
--
-- Order and listing state changes feed the chat, the notifications and the live events from triggers on
-- buy_orders and sell_listings: whatever code path moves an order (a party, an operator, the timers, the
-- settle-on-read), its system message, notifications and events are written in the same transaction, and
-- the market module carries no call into this one. pg_notify is delivered only on commit, so a listener
-- never sees an event of a transaction that rolled back.

-- Re-encoded chat images (metadata stripped). In the database rather than on a disk: every API instance
-- serves them, they are dispute evidence backed up and restored with the orders they belong to, and the
-- image and its message commit together (a failed upload stores nothing).
create table chat_images (
  id bigint generated always as identity primary key,
  order_id bigint not null references buy_orders (id),
  uploader_id bigint not null references members (id),
  content_type text not null check (content_type in ('image/jpeg', 'image/png', 'image/webp')),
  width int not null check (width > 0),
  height int not null check (height > 0),
  byte_size int not null check (byte_size > 0),
  sha256 text not null,
  bytes bytea not null,
  created_at timestamptz not null default now()
);
create index chat_images_order_idx on chat_images (order_id);

create table order_messages (
  id bigint generated always as identity primary key,
  order_id bigint not null references buy_orders (id),
  -- null for SYSTEM messages
  author_id bigint references members (id),
  author_role text not null check (author_role in ('BUYER', 'SELLER', 'OPERATOR', 'SYSTEM')),
  kind text not null check (kind in ('TEXT', 'IMAGE', 'SYSTEM')),
  -- TEXT: 1-1000 characters, stored and served as plain text (never HTML)
  text text check (text is null or char_length(text) between 1 and 1000),
  image_id bigint references chat_images (id),
  -- SYSTEM: the order status the order moved to
  status text,
  created_at timestamptz not null default now(),
  constraint order_messages_shape check (
    (kind = 'TEXT' and text is not null and image_id is null and author_id is not null)
    or (kind = 'IMAGE' and image_id is not null and author_id is not null)
    or (kind = 'SYSTEM' and status is not null and author_id is null))
);
create index order_messages_order_idx on order_messages (order_id, id);

-- Live events (GET /api/v1/events): the backlog a reconnecting stream resumes from with Last-Event-ID.
-- member_id null = every operator (the ops queues). Pruned after EVENTS_BACKLOG_SEC by the app's timer.
create table member_events (
  id bigint generated always as identity primary key,
  member_id bigint references members (id),
  type text not null check (type in ('order', 'message', 'notification', 'ops')),
  data jsonb not null,
  created_at timestamptz not null default now()
);
create index member_events_member_idx on member_events (member_id, id);
create index member_events_created_idx on member_events (created_at);

create function trade_room_event_notify() returns trigger language plpgsql as $$
begin
  perform pg_notify('trade_room', json_build_object(
    'id', new.id, 'm', new.member_id, 't', new.type, 'd', new.data)::text);
  return new;
end $$;
create trigger member_events_notify after insert on member_events
  for each row execute function trade_room_event_notify();

create table notifications (
  id bigint generated always as identity primary key,
  member_id bigint not null references members (id),
  kind text not null check (kind in ('ORDER_REQUESTED', 'ORDER_PAID', 'ORDER_COMPLETED', 'ORDER_EXPIRED',
    'ORDER_CANCELED', 'ORDER_REJECTED', 'DISPUTE_OPENED', 'DISPUTE_RESOLVED', 'MESSAGE',
    'LISTING_APPROVED', 'LISTING_REJECTED')),
  order_id bigint references buy_orders (id),
  listing_id bigint references sell_listings (id),
  data jsonb not null default '{}'::jsonb,
  read_at timestamptz,
  created_at timestamptz not null default now(),
  -- SMS and Web Push go out after commit, claimed by exactly one API instance (dispatched_at)
  dispatched_at timestamptz,
  sms_status text check (sms_status in ('SENT', 'OFF', 'FAILED', 'NO_PHONE')),
  push_sent int not null default 0
);
create index notifications_member_idx on notifications (member_id, id);
create index notifications_unread_idx on notifications (member_id) where read_at is null;
create index notifications_undispatched_idx on notifications (id) where dispatched_at is null;

create function trade_room_notification_event() returns trigger language plpgsql as $$
begin
  insert into member_events (member_id, type, data) values (new.member_id, 'notification',
    jsonb_build_object('id', new.id, 'kind', new.kind, 'orderId', new.order_id, 'listingId', new.listing_id));
  return new;
end $$;
create trigger notifications_event after insert on notifications
  for each row execute function trade_room_notification_event();

create table notification_settings (
  member_id bigint primary key references members (id),
  sms_alerts boolean not null default true,
  updated_at timestamptz not null default now()
);

create table push_subscriptions (
  id bigint generated always as identity primary key,
  member_id bigint not null references members (id),
  endpoint text not null unique,
  p256dh text not null,
  auth text not null,
  created_at timestamptz not null default now()
);
create index push_subscriptions_member_idx on push_subscriptions (member_id);

-- One order state change: a system message, the parties' live events, the notifications of DECISIONS §12,
-- and the operators' queue events for disputes.
create function trade_room_order_changed() returns trigger language plpgsql as $$
declare
  old_status text := case when tg_op = 'INSERT' then null else old.status end;
  k text;
  who bigint[] := array[]::bigint[];
  m bigint;
begin
  if tg_op = 'UPDATE' and old.status = new.status then
    return new;
  end if;
  insert into order_messages (order_id, author_role, kind, status)
    values (new.id, 'SYSTEM', 'SYSTEM', new.status);
  insert into member_events (member_id, type, data)
    select p, 'order', jsonb_build_object('id', new.id, 'status', new.status)
    from unnest(array[new.buyer_id, new.seller_id]) p;
  insert into member_events (member_id, type, data)
    select p, 'message', jsonb_build_object('orderId', new.id)
    from unnest(array[new.buyer_id, new.seller_id]) p;

  if old_status = 'DISPUTED' then
    -- an operator resolved the dispute: both parties hear it; the buyer also hears of the completion
    insert into notifications (member_id, kind, order_id, data)
      select p, 'DISPUTE_RESOLVED', new.id, jsonb_build_object('status', new.status)
      from unnest(array[new.buyer_id, new.seller_id]) p;
    insert into member_events (member_id, type, data)
      values (null, 'ops', jsonb_build_object('kind', 'DISPUTE_RESOLVED', 'orderId', new.id));
    if new.status = 'COMPLETED' then
      insert into notifications (member_id, kind, order_id) values (new.buyer_id, 'ORDER_COMPLETED', new.id);
    end if;
    return new;
  end if;

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
      insert into member_events (member_id, type, data)
        values (null, 'ops', jsonb_build_object('kind', 'DISPUTE_OPENED', 'orderId', new.id));
    else
      k := null;
  end case;
  if k is not null then
    foreach m in array who loop
      insert into notifications (member_id, kind, order_id) values (m, k, new.id);
    end loop;
  end if;
  return new;
end $$;
create trigger buy_orders_trade_room after insert or update of status on buy_orders
  for each row execute function trade_room_order_changed();

-- Listing review outcomes reach the seller; a new listing to review reaches the operators' queue.
create function trade_room_listing_changed() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into member_events (member_id, type, data)
      values (null, 'ops', jsonb_build_object('kind', 'LISTING_PENDING', 'listingId', new.id));
    return new;
  end if;
  if old.status = 'PENDING_REVIEW' and new.status = 'OPEN' then
    insert into notifications (member_id, kind, listing_id) values (new.seller_id, 'LISTING_APPROVED', new.id);
  elsif old.status = 'PENDING_REVIEW' and new.status = 'REJECTED' then
    insert into notifications (member_id, kind, listing_id, data)
      values (new.seller_id, 'LISTING_REJECTED', new.id, jsonb_build_object('reason', new.reject_reason));
  end if;
  return new;
end $$;
create trigger sell_listings_trade_room after insert or update of status on sell_listings
  for each row execute function trade_room_listing_changed();
