-- Issue 27: the console summary's count of live buy orders (operators/queries.ts opsSummary, exactly
-- `status in ('REQUESTED', 'PAID')`) read the (status, id) index, whose REQUESTED and PAID ranges also hold the
-- entries of every older version of a live order (a status change or a deadline move is a new version): 1,538
-- heap visits for 608 live orders at two million orders, 0.84 ms. This index holds the live orders only
-- (0.34 ms, 548 buffers), so the count reads what is live, not what was.
CREATE INDEX IF NOT EXISTS buy_orders_live_idx ON buy_orders (id) WHERE status IN ('REQUESTED', 'PAID');
