-- Proof of reserves from the nodes (DECISIONS §20): a coin whose node failed at the snapshot has its reserves
-- UNAVAILABLE (null), never zero and never the operator's declared figure. Each address's balance and control
-- signature stay in reserve_snapshots.addresses (jsonb, one entry per address).
alter table reserve_snapshots drop constraint reserve_snapshots_reserves_source_check;
alter table reserve_snapshots add constraint reserve_snapshots_reserves_source_check
  check (reserves_source in ('NODE', 'DECLARED', 'UNAVAILABLE', 'NONE'));
