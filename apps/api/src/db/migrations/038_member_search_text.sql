-- Issue 27: the operator member search matched `(login_id || ' ' || nickname || ' ' || name) ilike '%q%'`, built
-- and case-folded on every row it looked at. Its total is counted to 100 (operators/queries.ts SEARCH_COUNT_CAP),
-- and a common name ("park", one member in ten at 200,000 members) looks at about 1,000 rows to find 101:
-- 0.76 ms, of which ILIKE was 0.55 ms. Kept lowercased in a stored column, the same search is a plain LIKE
-- (0.16 ms for those 1,000 rows). The trigram index moves to the column (a LIKE on it uses it as the ILIKE used
-- the expression index), and 030's index of the four fields with the phone, no longer read by anything since
-- 027, goes: it only cost every signup and profile change a GIN update.
alter table members add column search_text text
  generated always as (lower(login_id || ' ' || nickname || ' ' || name)) stored;
drop index if exists members_names_trgm;
drop index if exists members_search_trgm;
create index members_search_text_trgm on members using gin (search_text gin_trgm_ops);
analyze members;
