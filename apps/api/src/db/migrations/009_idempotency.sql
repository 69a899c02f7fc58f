-- DECISIONS §15: one row per (caller, Idempotency-Key), kept 24 h. The primary key is the lock that makes two
-- concurrent requests with one key produce one effect: the first insert wins, the other sees the row.
create table idempotency_keys (
  caller_id bigint not null references members (id) on delete cascade,
  key text not null check (key ~ '^[A-Za-z0-9_-]{1,64}$'),
  -- sha256 (hex) of method, path and the canonical body: the same key with another request is refused.
  request_hash text not null check (length(request_hash) = 64),
  status text not null check (status in ('IN_PROGRESS', 'DONE')),
  response_status int,
  -- the answer exactly as first sent (serialized envelope), replayed byte for byte.
  response_body text,
  created_at timestamptz not null default now(),
  primary key (caller_id, key),
  check ((status = 'DONE') = (response_status is not null and response_body is not null))
);
-- Opportunistic cleanup deletes rows older than 24 h.
create index idempotency_keys_created_at on idempotency_keys (created_at);
