-- Flat with growth, second part (issue 27), measured small beside grown by bench/growth.ts. Numbered 027 (a
-- free number) though it follows 030-033 on running databases: it depends on nothing they add (pg_trgm is
-- created here too when absent).

-- The trade list's total (listings/queries.ts tradeList) counts the listed listings (OPEN, at least one minimum
-- purchase left) of sellers not suspended. Through sell_listings_status_id_idx it visited every OPEN listing's
-- heap row (5,000 rows, 1,000 pages at two million orders: 8-25 ms); this index holds exactly those listings
-- with their seller, so the count is an index-only scan of a few dozen pages (0.7 ms).
create index sell_listings_listed_idx on sell_listings (seller_id) where status = 'OPEN' and remaining_qty >= min_qty;

-- Operator member search (operators/queries.ts searchFilter): "contains" over login id, nickname and name is
-- one trigram index on the three joined by spaces; the phone is matched by its end through its reverse, a
-- btree range. Digits make poor trigrams: with the phone inside the trigram text a number search read most of
-- the index's digit entries (9-17 ms at 200,000 members); the reversed phone's range reads one leaf (0.3 ms).
-- (members_search_trgm of 030, which still has the phone, is no longer read by the API.)
create extension if not exists pg_trgm;
create index members_names_trgm on members using gin ((login_id || ' ' || nickname || ' ' || name) gin_trgm_ops);
create index members_phone_reversed_idx on members (reverse(phone_e164) text_pattern_ops);

-- Statistics for the new expression indexes now: the planner estimates `reverse(phone_e164) like '...%'` from
-- them, and autovacuum analyzes a table only after enough rows change (without them it walked every member).
analyze members;
analyze sell_listings;
