-- Proof of reserves (DECISIONS §20). A snapshot per coin: the Merkle-sum tree's root over every member's
-- liabilities (available + escrow + pending withdrawals, base units 10^-8 coin), the reserves the platform's
-- addresses held, and every node of the tree so that a member's proof is a few index lookups, never a rebuild.
create table reserve_snapshots (
  id bigint generated always as identity primary key,
  coin text not null check (coin in ('BTC', 'ETH', 'XRP', 'TRX')),
  taken_at timestamptz not null default now(),
  root_hash text not null check (root_hash ~ '^[0-9a-f]{64}$'),
  root_sum numeric(78, 0) not null check (root_sum >= 0),
  leaf_count int not null check (leaf_count >= 2),
  member_count int not null check (member_count >= 0),
  reserves numeric(38, 8) check (reserves >= 0),
  reserves_source text not null check (reserves_source in ('NODE', 'DECLARED', 'NONE')),
  addresses jsonb not null default '[]',
  taken_by bigint references members (id)
);
create index reserve_snapshots_coin_idx on reserve_snapshots (coin, id desc);

-- A leaf: its place in the tree, its salt, its balance and whose it is (null for padding). Never published whole.
create table reserve_leaves (
  snapshot_id bigint not null references reserve_snapshots (id) on delete cascade,
  idx int not null check (idx >= 0),
  member_id bigint references members (id),
  salt bytea not null check (octet_length(salt) = 32),
  balance numeric(78, 0) not null check (balance >= 0),
  primary key (snapshot_id, idx)
);
create unique index reserve_leaves_member_idx on reserve_leaves (snapshot_id, member_id) where member_id is not null;

-- Every node above the leaves (level 1 = the leaves' parents); a leaf's own hash is recomputed from its salt.
create table reserve_nodes (
  snapshot_id bigint not null references reserve_snapshots (id) on delete cascade,
  level int not null check (level >= 1),
  idx int not null check (idx >= 0),
  hash bytea not null check (octet_length(hash) = 32),
  sum numeric(78, 0) not null check (sum >= 0),
  primary key (snapshot_id, level, idx)
);

-- An operator's figure for a coin whose addresses no node reads here (shown as declared, never as verified).
create table reserve_declarations (
  coin text primary key check (coin in ('BTC', 'ETH', 'XRP', 'TRX')),
  amount numeric(38, 8) not null check (amount >= 0),
  declared_by bigint not null references members (id),
  declared_at timestamptz not null default now()
);
