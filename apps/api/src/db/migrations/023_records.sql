-- Knowing who trades, the records part (DECISIONS §19 "Counterparts", "Records"): blocks between members,
-- the login history (access log, 90 days), closing a membership and the retention purge's lease.

-- A closed membership keeps its row (ledger accounts, orders and transfers reference it and the ledger is never
-- deleted); the purge job anonymizes it RETENTION_YEARS after `closed_at` and stamps `purged_at`.
alter table members drop constraint members_status_check;
alter table members add constraint members_status_check check (status in ('ACTIVE', 'SUSPENDED', 'CLOSED'));
alter table members add column closed_at timestamptz;
alter table members add column purged_at timestamptz;
alter table members add constraint members_closed_at check ((status = 'CLOSED') = (closed_at is not null));
-- The purge job's scan: closed and not yet purged, oldest first.
create index members_closed_idx on members (closed_at) where status = 'CLOSED' and purged_at is null;

-- A closed member's phone stays on the kept identity record but is free for a new membership: one open
-- membership per phone, as before. Login id and nickname stay taken until the purge (old receipts and chats
-- name them; nobody may take them over meanwhile).
drop index members_phone_key;
create unique index members_phone_key on members (phone_e164) where role = 'MEMBER' and status <> 'CLOSED';

-- `blocker_id` hides `blocked_id`'s listings and neither may buy from the other (422 BLOCKED).
create table member_blocks (
  blocker_id bigint not null references members (id),
  blocked_id bigint not null references members (id),
  created_at timestamptz not null default now(),
  primary key (blocker_id, blocked_id),
  constraint member_blocks_not_self check (blocker_id <> blocked_id)
);
-- The purchase checks both directions; the primary key serves blocker -> blocked, this one the other way.
create index member_blocks_blocked_idx on member_blocks (blocked_id, blocker_id);

-- Every sign-in attempt of a known login id (an unknown id has no member to show it to). The user agent is
-- kept as sent (cut to 512 characters) and parsed when read; the address in full (masked when shown).
create table login_attempts (
  id bigint generated always as identity primary key,
  member_id bigint not null references members (id),
  at timestamptz not null default now(),
  ip text not null,
  user_agent text,
  result text not null check (result in ('OK', 'BAD_PASSWORD', 'BAD_TOTP', 'LOCKED', 'SUSPENDED', 'CLOSED'))
);
create index login_attempts_member_idx on login_attempts (member_id, at desc);
-- The 90-day pruning walks this one.
create index login_attempts_at_idx on login_attempts (at);

-- Leases of jobs that one instance of all runs at a time (the retention purge): taken when free or expired,
-- renewed by the holder; times from the database's clock.
create table job_leases (
  name text primary key,
  holder text,
  lease_until timestamptz,
  last_run_at timestamptz,
  updated_at timestamptz not null default now()
);
