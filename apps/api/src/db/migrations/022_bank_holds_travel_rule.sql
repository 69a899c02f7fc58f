-- Knowing who trades (DECISIONS §19), the money side: the 1원 bank-account check, the member's verified bank
-- account, and the Travel Rule record of a large external withdrawal. The withdrawal hold needs no table: it
-- is computed from the transfers rows (received amounts within the hold window).

-- One 1원 request: the account, the code carried in the 1 KRW deposit's depositor name (stored hashed), the
-- holder name the bank reported when it took the deposit, the wrong tries, the expiry. A member's newest
-- unused row is the one a code is checked against; a new request supersedes the older ones.
create table bank_verifications (
  id bigint generated always as identity primary key,
  member_id bigint not null references members (id),
  bank_name text not null,
  account_no text not null,
  code_hash text not null,
  holder_name text not null,
  tries int not null default 0 check (tries >= 0),
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index bank_verifications_member on bank_verifications (member_id, id desc);

-- The member's verified account: the one a listing pays into. One per member; a new check replaces it.
create table bank_accounts (
  member_id bigint primary key references members (id),
  bank_name text not null,
  account_no text not null,
  holder_name text not null,
  verified_at timestamptz not null default now()
);

-- The Travel Rule record of an external withdrawal worth TRAVEL_RULE_MIN_KRW or more: originator (the
-- member's verified name) and beneficiary, written in the withdrawal's own transaction.
create table withdrawal_travel_rule (
  transfer_id bigint primary key references transfers (id),
  originator_name text not null,
  beneficiary_name text not null,
  beneficiary_kind text not null check (beneficiary_kind in ('VASP', 'SELF_HOSTED')),
  vasp_name text,
  value_krw bigint,
  provider text not null,
  provider_ref text,
  created_at timestamptz not null default now(),
  constraint withdrawal_travel_rule_vasp check ((beneficiary_kind = 'VASP') = (vasp_name is not null))
);

-- The hold's read: a member's received internal deposits (purchases and transfers) of one coin, newest first.
create index transfers_received_hold on transfers (member_id, coin, completed_at)
  where type = 'DEPOSIT' and dest_type = 'INTERNAL' and status = 'COMPLETED';
