-- Proof of reserves, faster (DECISIONS §20 unchanged; issue 28's bench): a snapshot's tree is now built in the API
-- (reserves/snapshot-tree.ts, native SHA-256 over flat buffers) and stored as a few blobs instead of a row per
-- leaf and per node. Snapshots taken before keep their rows in reserve_leaves / reserve_nodes (026) and their
-- proofs are read from there: nodes_from_level is null for them.
--
-- nodes_from_level: the lowest node level stored in reserve_levels (levels 1 .. nodes_from_level - 1 are not:
-- a proof rehashes the 2^nodes_from_level leaves of its block). Null = a snapshot stored as rows (026).
alter table reserve_snapshots add column nodes_from_level smallint check (nodes_from_level >= 1);

-- The stored levels of a snapshot, in chunks of up to 65,536 records (3 MiB) keyed by the index of their first
-- record: level 0 = the leaves, 48 bytes each (salt 32 || balance 16-byte BE), level k >= nodes_from_level = the
-- nodes, 48 bytes each (hash 32 || sum 16-byte BE), in index order; the root is in reserve_snapshots.
-- STORAGE EXTERNAL (out of line, never compressed): a proof reads its 48-byte slices with substring(), which then
-- fetches only the TOAST chunks holding them, not the whole value.
create table reserve_levels (
  snapshot_id bigint not null references reserve_snapshots (id) on delete cascade,
  level int not null check (level >= 0),
  first_idx int not null check (first_idx >= 0),
  data bytea not null check (octet_length(data) % 48 = 0 and octet_length(data) > 0),
  primary key (snapshot_id, level, first_idx)
);
alter table reserve_levels alter column data set storage external;

-- Which leaf is whose: entries of 12 bytes (member id 8-byte BE || leaf index 4-byte BE) in ascending member id,
-- in blocks of up to 1024 keyed by their first member id: a proof reads the one block that can hold the member.
-- Never published.
create table reserve_member_blocks (
  snapshot_id bigint not null references reserve_snapshots (id) on delete cascade,
  first_member_id bigint not null,
  entries bytea not null check (octet_length(entries) % 12 = 0 and octet_length(entries) > 0),
  primary key (snapshot_id, first_member_id)
);

-- The tree is no longer hashed in SQL (032's helpers).
drop function reserve_u128(numeric);
drop function reserve_salt();
