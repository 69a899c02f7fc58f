-- Issue 27: counts that grow with the market kept as they change, not counted on every read. The console summary
-- counted its queues (listings in review, external withdrawals pending, live and disputed orders, members,
-- suspended members) and the trade list its listed listings (to 1,000) on every request: flat in history thanks
-- to partial indexes, but a count still reads every row it counts, and a market ten times busier has queues ten
-- times longer (608 live orders and 405 disputes at two million orders against 21: 3x the small database's time;
-- 1,001 listed listings a trade-list page). Now each count is kept:
--   * kept_counts holds a number per key; a row trigger on each counted table adds a delta row
--     (kept_count_deltas) in the transaction that moves a row into or out of a count, so the count commits or
--     rolls back with its cause. Deltas are appended, never updated: a purchase does not wait on a hot row.
--   * a read adds a key's number to its unfolded deltas in one statement (one snapshot: a fold is seen whole or
--     not at all); a job folds the deltas into kept_counts (db/kept-counts.ts), in one statement whose
--     DELETE ... RETURNING takes each delta at most once, however many instances fold at once.
--   * the triggers fire only when a row's key changes (WHEN, evaluated without calling the function), so a
--     deadline move, REQUESTED -> PAID (both "live") or a purchase that leaves a listing listed cost nothing, and
--     a bulk insert of finished orders adds nothing either.
--   * kept_counts_recount() sets every key from the tables (here, and after a TRUNCATE of a counted table).
-- Keys: requestedOrders, disputedOrders, pendingListings, pendingWithdrawals, members, suspendedMembers (the
-- console summary) and listed:<COIN> (OPEN with a minimum purchase left, whoever the seller: the trade list
-- subtracts suspended and blocked sellers' listings when it reads, listings/queries.ts).

create table kept_counts (
  key text primary key,
  n bigint not null
);

create table kept_count_deltas (
  id bigserial primary key,
  key text not null,
  delta integer not null
);

create function count_key_order(status text) returns text language sql immutable as $$
  select case when status in ('REQUESTED', 'PAID') then 'requestedOrders'
              when status = 'DISPUTED' then 'disputedOrders' end
$$;

create function count_key_review(status text) returns text language sql immutable as $$
  select case when status = 'PENDING_REVIEW' then 'pendingListings' end
$$;

-- the trade list's "listed" (listings/queries.ts tradeBase, sell_listings_listed_idx), by coin
create function count_key_listed(status text, remaining numeric, minimum numeric, coin text) returns text
language sql immutable as $$
  select case when status = 'OPEN' and remaining >= minimum then 'listed:' || coin end
$$;

create function count_key_transfer(status text, type text, dest_type text) returns text
language sql immutable as $$
  select case when status = 'PENDING' and type = 'WITHDRAW' and dest_type = 'EXTERNAL'
              then 'pendingWithdrawals' end
$$;

create function count_key_member(status text) returns text language sql immutable as $$
  select case when status = 'SUSPENDED' then 'suspendedMembers' end
$$;

-- One row left the count `was` and entered `now` (either may be null: no count).
create function kept_count_move(was text, now text) returns void language plpgsql as $$
begin
  if was is not distinct from now then
    return;
  end if;
  if was is not null then
    insert into kept_count_deltas (key, delta) values (was, -1);
  end if;
  if now is not null then
    insert into kept_count_deltas (key, delta) values (now, 1);
  end if;
end $$;

-- OLD is null in an INSERT trigger and NEW in a DELETE one, so each key below is null there.
create function kept_counts_buy_orders() returns trigger language plpgsql as $$
begin
  perform kept_count_move(count_key_order(OLD.status), count_key_order(NEW.status));
  return null;
end $$;

create function kept_counts_sell_listings() returns trigger language plpgsql as $$
begin
  perform kept_count_move(count_key_review(OLD.status), count_key_review(NEW.status));
  perform kept_count_move(count_key_listed(OLD.status, OLD.remaining_qty, OLD.min_qty, OLD.coin),
                          count_key_listed(NEW.status, NEW.remaining_qty, NEW.min_qty, NEW.coin));
  return null;
end $$;

create function kept_counts_transfers() returns trigger language plpgsql as $$
begin
  perform kept_count_move(count_key_transfer(OLD.status, OLD.type, OLD.dest_type),
                          count_key_transfer(NEW.status, NEW.type, NEW.dest_type));
  return null;
end $$;

create function kept_counts_members() returns trigger language plpgsql as $$
begin
  perform kept_count_move(case when TG_OP = 'INSERT' then null else 'members' end,
                          case when TG_OP = 'DELETE' then null else 'members' end);
  perform kept_count_move(count_key_member(OLD.status), count_key_member(NEW.status));
  return null;
end $$;

create function kept_counts_recount() returns void language plpgsql as $$
begin
  -- No fold, and no transaction holding an uncommitted delta, between the delete and the new figures: a delta
  -- insert waits here, and this waits for every transaction that already wrote one.
  lock table kept_counts, kept_count_deltas in exclusive mode;
  delete from kept_count_deltas;
  delete from kept_counts;
  insert into kept_counts (key, n)
  select k, n from (
    select 'requestedOrders' as k, (select count(*) from buy_orders where status in ('REQUESTED', 'PAID')) as n
    union all select 'disputedOrders', (select count(*) from buy_orders where status = 'DISPUTED')
    union all select 'pendingListings', (select count(*) from sell_listings where status = 'PENDING_REVIEW')
    union all select 'pendingWithdrawals', (select count(*) from transfers
      where status = 'PENDING' and type = 'WITHDRAW' and dest_type = 'EXTERNAL')
    union all select 'members', (select count(*) from members)
    union all select 'suspendedMembers', (select count(*) from members where status = 'SUSPENDED')
    union all select 'listed:' || coin, count(*) from sell_listings
      where status = 'OPEN' and remaining_qty >= min_qty group by coin
  ) s;
end $$;

create function kept_counts_after_truncate() returns trigger language plpgsql as $$
begin
  perform kept_counts_recount();
  return null;
end $$;

create trigger buy_orders_kept_count_ins after insert on buy_orders for each row
  when (count_key_order(NEW.status) is not null) execute function kept_counts_buy_orders();
create trigger buy_orders_kept_count_upd after update of status on buy_orders for each row
  when (count_key_order(OLD.status) is distinct from count_key_order(NEW.status))
  execute function kept_counts_buy_orders();
create trigger buy_orders_kept_count_del after delete on buy_orders for each row
  when (count_key_order(OLD.status) is not null) execute function kept_counts_buy_orders();

create trigger sell_listings_kept_count_ins after insert on sell_listings for each row
  when (count_key_review(NEW.status) is not null
        or count_key_listed(NEW.status, NEW.remaining_qty, NEW.min_qty, NEW.coin) is not null)
  execute function kept_counts_sell_listings();
create trigger sell_listings_kept_count_upd after update of status, remaining_qty, min_qty, coin
  on sell_listings for each row
  when (count_key_review(OLD.status) is distinct from count_key_review(NEW.status)
        or count_key_listed(OLD.status, OLD.remaining_qty, OLD.min_qty, OLD.coin)
           is distinct from count_key_listed(NEW.status, NEW.remaining_qty, NEW.min_qty, NEW.coin))
  execute function kept_counts_sell_listings();
create trigger sell_listings_kept_count_del after delete on sell_listings for each row
  when (count_key_review(OLD.status) is not null
        or count_key_listed(OLD.status, OLD.remaining_qty, OLD.min_qty, OLD.coin) is not null)
  execute function kept_counts_sell_listings();

create trigger transfers_kept_count_ins after insert on transfers for each row
  when (count_key_transfer(NEW.status, NEW.type, NEW.dest_type) is not null)
  execute function kept_counts_transfers();
create trigger transfers_kept_count_upd after update of status, type, dest_type on transfers for each row
  when (count_key_transfer(OLD.status, OLD.type, OLD.dest_type)
        is distinct from count_key_transfer(NEW.status, NEW.type, NEW.dest_type))
  execute function kept_counts_transfers();
create trigger transfers_kept_count_del after delete on transfers for each row
  when (count_key_transfer(OLD.status, OLD.type, OLD.dest_type) is not null)
  execute function kept_counts_transfers();

create trigger members_kept_count_ins after insert on members for each row
  execute function kept_counts_members();
create trigger members_kept_count_upd after update of status on members for each row
  when (count_key_member(OLD.status) is distinct from count_key_member(NEW.status))
  execute function kept_counts_members();
create trigger members_kept_count_del after delete on members for each row
  execute function kept_counts_members();

create trigger buy_orders_kept_count_trunc after truncate on buy_orders
  for each statement execute function kept_counts_after_truncate();
create trigger sell_listings_kept_count_trunc after truncate on sell_listings
  for each statement execute function kept_counts_after_truncate();
create trigger transfers_kept_count_trunc after truncate on transfers
  for each statement execute function kept_counts_after_truncate();
create trigger members_kept_count_trunc after truncate on members
  for each statement execute function kept_counts_after_truncate();

select kept_counts_recount();
