-- The operator audit log (DECISIONS §8): every operator action, who, when, why.
create table audit_log (
  id bigint generated always as identity primary key,
  operator_id bigint not null references members (id),
  action text not null,
  target_type text not null,
  target_id text not null,
  reason text,
  data jsonb,
  created_at timestamptz not null default now()
);
create index audit_log_created_idx on audit_log (id desc);
