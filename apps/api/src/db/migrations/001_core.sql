-- Members and the double-entry ledger (DECISIONS §4, §6).
create table members (
  id bigint generated always as identity primary key,
  login_id text not null,
  nickname text not null,
  name text not null,
  country_code text not null check (country_code in ('82', '1', '81')),
  phone_e164 text not null,
  password_hash text not null,
  bank_name text,
  account_no text,
  role text not null default 'MEMBER' check (role in ('MEMBER', 'OPERATOR')),
  status text not null default 'ACTIVE' check (status in ('ACTIVE', 'SUSPENDED')),
  suspended_reason text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- Availability is decided by these constraints, not by a prior check (DECISIONS §6).
create unique index members_login_id_key on members (lower(login_id));
create unique index members_nickname_key on members (lower(nickname));

-- One account per (member, coin, kind) or per (platform kind, coin). Balances are coin amounts with
-- 8 fractional digits. A member account can never go below zero: the database refuses it.
create table ledger_accounts (
  id bigint generated always as identity primary key,
  member_id bigint references members (id),
  coin text not null check (coin in ('BTC', 'ETH', 'XRP', 'TRX')),
  kind text not null check (kind in ('available', 'escrow', 'chain', 'withdrawal_pending', 'fees')),
  balance numeric(38, 8) not null default 0,
  constraint ledger_accounts_owner check ((member_id is null) = (kind in ('chain', 'withdrawal_pending', 'fees'))),
  constraint ledger_accounts_member_nonnegative check (member_id is null or balance >= 0)
);
create unique index ledger_accounts_key on ledger_accounts (member_id, coin, kind) nulls not distinct;

-- A ledger entry groups postings that sum to zero per coin; `ref` makes a retry harmless.
create table ledger_entries (
  id bigint generated always as identity primary key,
  ref text not null unique,
  kind text not null,
  memo text,
  created_at timestamptz not null default now()
);

create table ledger_postings (
  id bigint generated always as identity primary key,
  entry_id bigint not null references ledger_entries (id),
  account_id bigint not null references ledger_accounts (id),
  coin text not null,
  amount numeric(38, 8) not null check (amount <> 0)
);
create index ledger_postings_entry_idx on ledger_postings (entry_id);
create index ledger_postings_account_idx on ledger_postings (account_id);
