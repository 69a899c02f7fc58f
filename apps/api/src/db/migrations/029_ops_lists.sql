-- Flat with growth (issue 27): the console's member page (operators/queries.ts memberDetail) counts the member's
-- live orders as buyer and as seller (REQUESTED, PAID, DISPUTED). The buyer's side has buy_orders_buyer_live_idx
-- (008); the seller's side had only (seller_id, id) and the waiting index without DISPUTED, so a busy seller's
-- count read all of their orders (20,000 index entries and a bitmap of their heap pages at two million orders).
-- The same partial index for the seller: the count reads the member's live orders only.
create index if not exists buy_orders_seller_live_idx on buy_orders (seller_id)
  where status in ('REQUESTED', 'PAID', 'DISPUTED');
