-- The trade list cache: every API instance keeps the serialized public trade list for a second or
-- two and drops it the moment any instance commits a change to what a card of that list shows. These triggers
-- NOTIFY on the `trade_list` channel; pg_notify is delivered only on commit and identical notifications of one
-- transaction are folded into one, so a purchase sends one whatever it touched.
-- What a card shows: the listing (sell_listings: orders, cancels, expiry, review, pause, close), the seller's
-- track record (seller_stats) and the seller's status and public names (members: a suspension hides the
-- seller's listings). Statement-level where every change counts; members only when those columns change.
create function trade_list_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('trade_list', '');
  return null;
end $$;

create trigger sell_listings_trade_list after insert or update or delete on sell_listings
  for each statement execute function trade_list_changed();
create trigger sell_listings_trade_list_truncate after truncate on sell_listings
  for each statement execute function trade_list_changed();

create trigger seller_stats_trade_list after insert or update or delete on seller_stats
  for each statement execute function trade_list_changed();

create trigger members_trade_list after update of status, nickname, name, country_code on members
  for each row when (old.status is distinct from new.status or old.nickname is distinct from new.nickname
    or old.name is distinct from new.name or old.country_code is distinct from new.country_code)
  execute function trade_list_changed();
