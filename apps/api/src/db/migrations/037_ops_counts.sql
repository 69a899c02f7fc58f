-- Issue 27: the console summary's queues counted as they change, not on every read. opsSummary counted each queue
-- (listings in review, external withdrawals pending, live and disputed orders, members, suspended members) on
-- every request: flat in history thanks to partial indexes, but a count still reads every live row, and a market
-- ten times busier has queues ten times longer (608 live orders and 405 disputes at two million orders against
-- 21: 3x the small database's time). Now each queue's count is kept:
--   * ops_counts holds a number per key; a row trigger on each counted table adds a delta row
--     (ops_count_deltas) in the transaction that moves a row into or out of a queue, so the count commits or
--     rolls back with its cause. Deltas are appended, never updated: a purchase does not wait on a hot row.
--   * the summary reads the keys plus their unfolded deltas in one statement (one snapshot: a fold is seen
--     whole or not at all); a job folds the deltas into ops_counts (modules/operators/ops-counts.ts), in one
--     statement whose DELETE ... RETURNING takes each delta at most once, however many instances fold at once.
--   * the triggers fire only when a row's key changes (WHEN, evaluated without calling the function), so a
--     deadline move or REQUESTED -> PAID (both "live") costs nothing, and a bulk insert of finished orders adds
--     nothing either.
--   * ops_counts_recount() sets every key from the tables (here, and after a TRUNCATE of a counted table).

create table ops_counts (
  key text primary key,
  n bigint not null
);

create table ops_count_deltas (
  id bigserial primary key,
  key text not null,
  delta integer not null
);

create function ops_count_key_order(status text) returns text language sql immutable as $$
  select case when status in ('REQUESTED', 'PAID') then 'requestedOrders'
              when status = 'DISPUTED' then 'disputedOrders' end
$$;

create function ops_count_key_listing(status text) returns text language sql immutable as $$
  select case when status = 'PENDING_REVIEW' then 'pendingListings' end
$$;

create function ops_count_key_transfer(status text, type text, dest_type text) returns text
language sql immutable as $$
  select case when status = 'PENDING' and type = 'WITHDRAW' and dest_type = 'EXTERNAL'
              then 'pendingWithdrawals' end
$$;

create function ops_count_key_member(status text) returns text language sql immutable as $$
  select case when status = 'SUSPENDED' then 'suspendedMembers' end
$$;

-- One row left the queue `was` and entered `now` (either may be null: no queue).
create function ops_count_move(was text, now text) returns void language plpgsql as $$
begin
  if was is not distinct from now then
    return;
  end if;
  if was is not null then
    insert into ops_count_deltas (key, delta) values (was, -1);
  end if;
  if now is not null then
    insert into ops_count_deltas (key, delta) values (now, 1);
  end if;
end $$;

-- OLD is null in an INSERT trigger and NEW in a DELETE one, so each key below is null there.
create function ops_counts_buy_orders() returns trigger language plpgsql as $$
begin
  perform ops_count_move(ops_count_key_order(OLD.status), ops_count_key_order(NEW.status));
  return null;
end $$;

create function ops_counts_sell_listings() returns trigger language plpgsql as $$
begin
  perform ops_count_move(ops_count_key_listing(OLD.status), ops_count_key_listing(NEW.status));
  return null;
end $$;

create function ops_counts_transfers() returns trigger language plpgsql as $$
begin
  perform ops_count_move(ops_count_key_transfer(OLD.status, OLD.type, OLD.dest_type),
                         ops_count_key_transfer(NEW.status, NEW.type, NEW.dest_type));
  return null;
end $$;

create function ops_counts_members() returns trigger language plpgsql as $$
begin
  perform ops_count_move(case when TG_OP = 'INSERT' then null else 'members' end,
                         case when TG_OP = 'DELETE' then null else 'members' end);
  perform ops_count_move(ops_count_key_member(OLD.status), ops_count_key_member(NEW.status));
  return null;
end $$;

create function ops_counts_recount() returns void language plpgsql as $$
begin
  -- No fold, and no transaction holding an uncommitted delta, between the delete and the new figures: a delta
  -- insert waits here, and this waits for every transaction that already wrote one.
  lock table ops_counts, ops_count_deltas in exclusive mode;
  delete from ops_count_deltas;
  delete from ops_counts;
  insert into ops_counts (key, n)
  select k, n from (
    select 'requestedOrders' as k, (select count(*) from buy_orders where status in ('REQUESTED', 'PAID')) as n
    union all select 'disputedOrders', (select count(*) from buy_orders where status = 'DISPUTED')
    union all select 'pendingListings', (select count(*) from sell_listings where status = 'PENDING_REVIEW')
    union all select 'pendingWithdrawals', (select count(*) from transfers
      where status = 'PENDING' and type = 'WITHDRAW' and dest_type = 'EXTERNAL')
    union all select 'members', (select count(*) from members)
    union all select 'suspendedMembers', (select count(*) from members where status = 'SUSPENDED')
  ) s;
end $$;

create function ops_counts_after_truncate() returns trigger language plpgsql as $$
begin
  perform ops_counts_recount();
  return null;
end $$;

create trigger buy_orders_ops_count_ins after insert on buy_orders for each row
  when (ops_count_key_order(NEW.status) is not null) execute function ops_counts_buy_orders();
create trigger buy_orders_ops_count_upd after update of status on buy_orders for each row
  when (ops_count_key_order(OLD.status) is distinct from ops_count_key_order(NEW.status))
  execute function ops_counts_buy_orders();
create trigger buy_orders_ops_count_del after delete on buy_orders for each row
  when (ops_count_key_order(OLD.status) is not null) execute function ops_counts_buy_orders();

create trigger sell_listings_ops_count_ins after insert on sell_listings for each row
  when (ops_count_key_listing(NEW.status) is not null) execute function ops_counts_sell_listings();
create trigger sell_listings_ops_count_upd after update of status on sell_listings for each row
  when (ops_count_key_listing(OLD.status) is distinct from ops_count_key_listing(NEW.status))
  execute function ops_counts_sell_listings();
create trigger sell_listings_ops_count_del after delete on sell_listings for each row
  when (ops_count_key_listing(OLD.status) is not null) execute function ops_counts_sell_listings();

create trigger transfers_ops_count_ins after insert on transfers for each row
  when (ops_count_key_transfer(NEW.status, NEW.type, NEW.dest_type) is not null)
  execute function ops_counts_transfers();
create trigger transfers_ops_count_upd after update of status, type, dest_type on transfers for each row
  when (ops_count_key_transfer(OLD.status, OLD.type, OLD.dest_type)
        is distinct from ops_count_key_transfer(NEW.status, NEW.type, NEW.dest_type))
  execute function ops_counts_transfers();
create trigger transfers_ops_count_del after delete on transfers for each row
  when (ops_count_key_transfer(OLD.status, OLD.type, OLD.dest_type) is not null)
  execute function ops_counts_transfers();

create trigger members_ops_count_ins after insert on members for each row execute function ops_counts_members();
create trigger members_ops_count_upd after update of status on members for each row
  when (ops_count_key_member(OLD.status) is distinct from ops_count_key_member(NEW.status))
  execute function ops_counts_members();
create trigger members_ops_count_del after delete on members for each row execute function ops_counts_members();

create trigger buy_orders_ops_count_trunc after truncate on buy_orders
  for each statement execute function ops_counts_after_truncate();
create trigger sell_listings_ops_count_trunc after truncate on sell_listings
  for each statement execute function ops_counts_after_truncate();
create trigger transfers_ops_count_trunc after truncate on transfers
  for each statement execute function ops_counts_after_truncate();
create trigger members_ops_count_trunc after truncate on members
  for each statement execute function ops_counts_after_truncate();

select ops_counts_recount();
