-- The operator console's queues update live (DECISIONS §12): besides disputes and listings to review, an
-- external withdrawal waiting to be sent and a new buy order reach every operator's event stream.
create function ops_queue_transfer_added() returns trigger language plpgsql as $$
begin
  if new.type = 'WITHDRAW' and new.dest_type = 'EXTERNAL' and new.status = 'PENDING' then
    insert into member_events (member_id, type, data)
      values (null, 'ops', jsonb_build_object('kind', 'WITHDRAWAL_PENDING', 'transferId', new.id));
  end if;
  return new;
end $$;
create trigger transfers_ops_queue after insert on transfers
  for each row execute function ops_queue_transfer_added();

create function ops_queue_order_added() returns trigger language plpgsql as $$
begin
  insert into member_events (member_id, type, data)
    values (null, 'ops', jsonb_build_object('kind', 'ORDER_REQUESTED', 'orderId', new.id));
  return new;
end $$;
create trigger buy_orders_ops_queue after insert on buy_orders
  for each row execute function ops_queue_order_added();
