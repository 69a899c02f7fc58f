-- SMS codes, phone verifications, refresh tokens and reset tickets (DECISIONS §6).
create table sms_codes (
  id bigint generated always as identity primary key,
  phone_e164 text not null,
  purpose text not null check (purpose in ('signup', 'member', 'reset')),
  code_hash text not null,
  expires_at timestamptz not null,
  tries int not null default 0,
  verified_at timestamptz,
  member_id bigint references members (id),
  ip text,
  created_at timestamptz not null default now()
);
create index sms_codes_phone_idx on sms_codes (phone_e164, purpose, created_at desc);

create table refresh_tokens (
  id bigint generated always as identity primary key,
  member_id bigint not null references members (id),
  family_id uuid not null,
  token_hash text not null unique,
  expires_at timestamptz not null,
  rotated_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz not null default now()
);
create index refresh_tokens_family_idx on refresh_tokens (family_id);

create table reset_tickets (
  id bigint generated always as identity primary key,
  member_id bigint not null references members (id),
  ticket_hash text not null unique,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index refresh_tokens_member_idx on refresh_tokens (member_id);
create index reset_tickets_member_idx on reset_tickets (member_id);

-- One member account per phone (operators excluded: they may be created without a real phone).
-- Like login id and nickname, this is decided by the constraint, so two racing signups cannot share it.
create unique index members_phone_key on members (phone_e164) where role = 'MEMBER';
