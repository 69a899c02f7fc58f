-- Flat with growth (issue 27): the indexes the console and member reads need at two million orders, the
-- trigram search of members, the retention purge's walks, and the best listings' figures kept by a job.

-- Operator member search (GET /ops/api/v1/members?q=): "contains" over login id, nickname, name and phone is
-- one trigram index on the four joined by spaces (operators/queries.ts builds the same expression), so an OR
-- of the four is one bitmap scan instead of a pass over every member; one index per column left the planner
-- choosing the pass (five bitmaps cost more by its estimate). PGlite loads the same extension (db/client.ts).
create extension if not exists pg_trgm;
create index members_search_trgm on members
  using gin ((login_id || ' ' || nickname || ' ' || name || ' ' || phone_e164) gin_trgm_ops);

-- The audit log of one target (a member's or a listing's page), newest first.
create index audit_log_target_idx on audit_log (target_type, target_id, id desc);

-- The seller's badge (GET /my/order-counts): orders waiting on the member's listings, one small range per
-- side instead of an OR over every order the member ever had (the buyer's side: buy_orders_buyer_live_idx).
create index buy_orders_seller_waiting_idx on buy_orders (seller_id) where status in ('REQUESTED', 'PAID');

-- The purchase phone check (orders/repo.ts buyerStanding) asks for a code of the phone verified in the last
-- 300 s: a range of this index, instead of every code the phone ever got under sms_codes_phone_idx.
create index sms_codes_verified_idx on sms_codes (phone_e164, purpose, verified_at) where verified_at is not null;

-- The retention purge (records module): SMS codes and refresh tokens past their use are deleted in batches,
-- oldest first. Only the codes it may delete are in the first index (a verified 'member' code can be an order's
-- purchase check, which its foreign key keeps), so a run never walks over the kept ones.
create index sms_codes_prunable_idx on sms_codes (created_at) where purpose <> 'member' or verified_at is null;
create index refresh_tokens_expires_idx on refresh_tokens (expires_at);

-- The home carousel's figures (GET /api/v1/sell-listings/best): COMPLETED orders of the last 7 days per listed
-- listing, rewritten by a job (listings/best-listings.ts) instead of counted from the orders on each request.
create table stats_listing_trades (
  listing_id bigint primary key references sell_listings (id),
  trades integer not null check (trades > 0),
  refreshed_at timestamptz not null default now()
);
create index stats_listing_trades_rank_idx on stats_listing_trades (trades desc, listing_id desc);
