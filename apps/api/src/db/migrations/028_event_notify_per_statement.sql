-- Live events: one NOTIFY per statement instead of one per row (issue 27, fan-out of one commit to many streams).
-- 010's row trigger built a JSON payload and called pg_notify for every member_events row: a statement telling
-- 10,000 members ran 10,000 trigger calls and queued 10,000 notifications, all before its commit. The statement
-- trigger below sees the statement's rows in a transition table and sends, on the same channel (`trade_room`):
--   * a small statement (up to 64 rows whose JSON fits): {"b": [{id, m, t, d}, ...]}, the rows themselves in id
--     order, exactly as 010 sent each one (the listener needs no read);
--   * a larger one (or a row too big for a payload, which 010 could not send at all): {"r": [[lo, hi], ...]},
--     the runs of consecutive ids the statement inserted, split over as many NOTIFYs as the 8,000-byte payload
--     limit asks. A run holds only this statement's rows (its ids are consecutive and all in the transition
--     table), so each listener reads exactly those rows back (`where id between lo and hi`), once.
-- Every row is in exactly one payload; notifications of one transaction arrive in the order sent and those of
-- transactions in commit order, so ids arrive as before. Applied after 031 on a database that already had it:
-- nothing here depends on 031's `members` column.
create or replace function trade_room_events_notify() returns trigger language plpgsql as $$
declare
  body text;
  run record;
  buf text := '';
begin
  if (select count(*) from new_rows) <= 64 then
    select string_agg(json_build_object('id', id, 'm', member_id, 't', type, 'd', data)::text, ',' order by id)
      into body from new_rows;
    if octet_length(body) <= 7900 then
      perform pg_notify('trade_room', '{"b":[' || body || ']}');
      return null;
    end if;
  end if;
  for run in
    select min(id) as lo, max(id) as hi
    from (select id, id - row_number() over (order by id) as g from new_rows) s
    group by g order by lo
  loop
    if octet_length(buf) > 7800 then
      perform pg_notify('trade_room', '{"r":[' || buf || ']}');
      buf := '';
    end if;
    buf := buf || case when buf = '' then '' else ',' end || '[' || run.lo || ',' || run.hi || ']';
  end loop;
  if buf <> '' then
    perform pg_notify('trade_room', '{"r":[' || buf || ']}');
  end if;
  return null;
end $$;

drop trigger member_events_notify on member_events;
drop function trade_room_event_notify();
create trigger member_events_notify after insert on member_events
  referencing new table as new_rows
  for each statement execute function trade_room_events_notify();
