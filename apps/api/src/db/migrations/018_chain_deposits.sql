-- Deposits from real chains (DECISIONS §17): the per-coin watcher's lease and cursor, the recent blocks it
-- applied (reorg detection), the confirmations of a deposit seen on chain, payments that match no member
-- (XRP without a known destination tag), the member's DEPOSIT_CREDITED notification and `transfer` live
-- events.

-- One row per coin a watcher ever ran for. The lease (holder, lease_until) makes one instance of all the
-- API processes the active watcher; it is renewed in every block's transaction, so a holder that lost it can
-- never apply a block (the update matches no row and the transaction rolls back). The cursor (height, hash)
-- is the last block applied; every block moves it by one under a compare-and-set on the height and hash.
create table chain_watchers (
  coin text primary key references coins (code),
  holder text,
  lease_until timestamptz,
  height bigint check (height >= -1),
  hash text,
  node_height bigint,
  node_up boolean,
  last_scan_at timestamptz,
  last_error text,
  last_error_at timestamptz,
  updated_at timestamptz not null default now()
);

-- The blocks the watcher applied, newest few hundred per coin: when the node's hash at a stored height
-- differs, the chain reorganized and the highest height where both agree is the fork.
create table chain_blocks (
  coin text not null references coins (code),
  height bigint not null check (height >= 0),
  hash text not null,
  parent_hash text,
  primary key (coin, height)
);

-- A deposit seen on chain: PENDING with its confirmations until credited (COMPLETED), BELOW_MINIMUM when
-- under DEPOSIT_MIN_<COIN> (recorded, never credited), DROPPED when its transaction left the chain and did not
-- come back in time. block_height/block_hash: the block it is in now (null while it is out of the chain after
-- a reorg, fork_height then says where the chain forked); chain_amount: the amount in the chain's own unit.
alter table transfers drop constraint transfers_status_check;
alter table transfers add constraint transfers_status_check
  check (status in ('PENDING', 'COMPLETED', 'REJECTED', 'DROPPED', 'BELOW_MINIMUM'));
alter table transfers
  add column confirmations int check (confirmations >= 0),
  add column required_confirmations int check (required_confirmations >= 1),
  add column block_height bigint,
  add column block_hash text,
  add column fork_height bigint,
  add column chain_amount numeric(78, 0) check (chain_amount > 0);
-- The watcher's open deposits of a coin: confirmed, dropped or credited as blocks come in.
create index transfers_chain_open_idx on transfers (coin, block_height)
  where type = 'DEPOSIT' and dest_type = 'EXTERNAL' and status in ('PENDING', 'BELOW_MINIMUM');

-- Payments to the platform that match no member (XRP without a destination tag or with an unknown one):
-- the operators' queue. An operator assigns one to a member (credited once: the ledger ref and the transfer's
-- unique key are those of any deposit of that output) or records that it was sent back.
create table chain_unmatched (
  id bigint generated always as identity primary key,
  coin text not null references coins (code),
  txid text not null,
  output_index int not null check (output_index >= 0),
  address text not null,
  destination_tag bigint check (destination_tag between 0 and 4294967295),
  amount numeric(38, 8) not null check (amount > 0),
  chain_amount numeric(78, 0) not null check (chain_amount > 0),
  block_height bigint not null,
  status text not null default 'UNMATCHED' check (status in ('UNMATCHED', 'ASSIGNED', 'RETURNED')),
  member_id bigint references members (id),
  transfer_id bigint references transfers (id),
  return_txid text,
  reason text,
  decided_by bigint references members (id),
  decided_at timestamptz,
  created_at timestamptz not null default now(),
  unique (coin, txid, output_index),
  constraint chain_unmatched_decision check (
    (status = 'UNMATCHED' and decided_at is null)
    or (status = 'ASSIGNED' and member_id is not null and transfer_id is not null and decided_at is not null)
    or (status = 'RETURNED' and return_txid is not null and decided_at is not null))
);
create index chain_unmatched_status_idx on chain_unmatched (status, id);

alter table notifications drop constraint notifications_kind_check;
alter table notifications add constraint notifications_kind_check
  check (kind in ('ORDER_REQUESTED', 'ORDER_PAID', 'ORDER_COMPLETED', 'ORDER_EXPIRED',
    'ORDER_CANCELED', 'ORDER_REJECTED', 'DISPUTE_OPENED', 'DISPUTE_RESOLVED', 'MESSAGE',
    'LISTING_APPROVED', 'LISTING_REJECTED', 'DEPOSIT_CREDITED'));

alter table member_events drop constraint member_events_type_check;
alter table member_events add constraint member_events_type_check
  check (type in ('order', 'message', 'notification', 'ops', 'transfer'));

-- Every change a member can see on a transfer row (created, status, confirmations) reaches their live event
-- stream as `transfer` {id, status}, whichever code path made it; delivered on commit like the others.
create function transfer_member_event() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' and old.status = new.status
      and old.confirmations is not distinct from new.confirmations then
    return new;
  end if;
  insert into member_events (member_id, type, data)
    values (new.member_id, 'transfer', jsonb_build_object('id', new.id, 'status', new.status));
  return new;
end $$;
create trigger transfers_member_event after insert or update of status, confirmations on transfers
  for each row execute function transfer_member_event();
