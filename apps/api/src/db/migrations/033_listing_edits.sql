-- A seller edits an active listing's price and quantities (PATCH /api/v1/sell-listings/{id}). Each edit that
-- changes maxQty moves the difference between available and escrow in one ledger entry whose ref carries the
-- listing's own edit count (`listing:<id>:edit:<n>`), so the count lives on the listing row, advanced under
-- its row lock in the same transaction as the entry.
alter table sell_listings add column qty_edits integer not null default 0 check (qty_edits >= 0);
