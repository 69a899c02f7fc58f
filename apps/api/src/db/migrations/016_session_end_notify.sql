-- The event stream ends with its session (DECISIONS §21): every API instance holds open streams, and a session
-- can be revoked on any of them (logout, a password change or reset, refresh-token reuse, a suspension). These
-- triggers announce it on the live-event channel (`trade_room`, 010_trade_room.sql) as `{"end": <family id>,
-- "m": <member id>}`; the member's row announces a suspension as `{"end": null, "m": <member id>}` (every stream
-- of the member). Triggers rather than calls: whatever code path revokes, the streams hear of it. pg_notify is
-- delivered on commit only and identical notifications of one transaction are folded into one, so revoking a
-- family of many rotated tokens sends one.
create function session_end_notify() returns trigger language plpgsql as $$
begin
  if tg_table_name = 'refresh_tokens' then
    perform pg_notify('trade_room', json_build_object('end', new.family_id, 'm', new.member_id)::text);
  else
    perform pg_notify('trade_room', json_build_object('end', null, 'm', new.id)::text);
  end if;
  return null;
end $$;

create trigger refresh_tokens_session_end after update of revoked_at on refresh_tokens
  for each row when (old.revoked_at is null and new.revoked_at is not null)
  execute function session_end_notify();

create trigger members_session_end after update of status on members
  for each row when (new.status = 'SUSPENDED' and old.status is distinct from new.status)
  execute function session_end_notify();
