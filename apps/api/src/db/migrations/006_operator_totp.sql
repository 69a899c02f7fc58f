-- Operator second factor (DECISIONS §13): one TOTP secret (RFC 6238) per operator. The secret is stored
-- encrypted (AES-256-GCM, see modules/ops/totp-crypto.ts); confirmed_at is set once a code proved the
-- authenticator app holds it; last_time_step is the newest 30-second step accepted, so a code is used once.
create table operator_totp (
  member_id bigint primary key references members (id) on delete cascade,
  secret_enc text not null,
  enrolled_at timestamptz not null default now(),
  confirmed_at timestamptz,
  last_time_step bigint
);
