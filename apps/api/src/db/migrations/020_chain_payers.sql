-- The platform's own coins on chain (DECISIONS §18): what the BTC and TRX payers spend, the internal-chain
-- key counters, the transactions they sent and the sweeps (deposit -> hot, hot -> cold).

-- Outputs the platform can spend. BTC: outputs of credited deposits (path 0/<i>) and the change of our own
-- transactions (path 1/<n>); TRX: credited deposits still to be swept from 0/<i> to the hot address 1/0.
-- `units` is in the chain's own unit (satoshi, sun). `confirmed`: a deposit is (it was credited); change is
-- once the transaction that made it is in a block, so a replaced parent never leaves a spendable child.
-- `reserved_by`: the signer requestId of the attempt that spends it (a replacement takes over the same
-- outputs); `spent_by`: the txid that spent it, set when that transaction confirmed.
create table chain_outputs (
  coin text not null references coins (code),
  txid text not null,
  vout int not null check (vout >= 0),
  units numeric(30, 0) not null check (units > 0),
  address text not null,
  path text not null check (path ~ '^[01]/[0-9]{1,10}$'),
  source text not null check (source in ('DEPOSIT', 'CHANGE')),
  confirmed boolean not null,
  reserved_by text,
  spent_by text,
  created_at timestamptz not null default now(),
  primary key (coin, txid, vout)
);
create index chain_outputs_free_idx on chain_outputs (coin, units)
  where spent_by is null and reserved_by is null and confirmed;

-- The next index of a coin's internal chain 1/<n> (BTC change). Taking one locks the row.
create table chain_key_counters (
  coin text primary key references coins (code),
  next_index int not null default 1 check (next_index >= 1)
);

-- Change addresses handed out by the BTC payer: an output of a broadcast transaction paying one of them is ours.
create table chain_change_addresses (
  coin text not null references coins (code),
  address text not null,
  path text not null check (path ~ '^1/[0-9]{1,10}$'),
  request_id text not null,
  created_at timestamptz not null default now(),
  primary key (coin, address)
);

-- Every transaction a payer broadcast: its bytes, the attempt, and the block it was last seen in (so its state can
-- be read from a node without a transaction index).
create table chain_sent (
  coin text not null references coins (code),
  txid text not null,
  request_id text,
  signed_tx text not null,
  block_hash text,
  created_at timestamptz not null default now(),
  primary key (coin, txid)
);

-- Sweeps of the hot wallet's excess to the cold address (COLD_SWEEP, `cold:<COIN>:<n>`); one open per coin at a
-- time. (Deposit sweeps to the hot address are 019's chain_sweeps.)
create table cold_sweeps (
  id bigint generated always as identity primary key,
  coin text not null references coins (code),
  purpose text not null check (purpose in ('SWEEP', 'COLD_SWEEP')),
  request_id text not null unique,
  from_path text not null,
  to_address text not null,
  units numeric(30, 0) not null check (units > 0),
  txid text,
  status text not null default 'PREPARED'
    check (status in ('PREPARED', 'BROADCAST', 'CONFIRMED', 'FAILED')),
  reason text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index cold_sweeps_one_open on cold_sweeps (coin)
  where purpose = 'COLD_SWEEP' and status in ('PREPARED', 'BROADCAST');

-- A deposit the watcher credited becomes a platform output (BTC and TRX), whichever code path credits it.
create function chain_outputs_from_deposit() returns trigger language plpgsql as $$
begin
  if new.type = 'DEPOSIT' and new.dest_type = 'EXTERNAL' and new.status = 'COMPLETED'
      and new.coin in ('BTC', 'TRX') and new.required_confirmations is not null
      and new.txid is not null and new.chain_index is not null and new.chain_amount is not null then
    insert into chain_outputs (coin, txid, vout, units, address, path, source, confirmed)
      select new.coin, new.txid, new.chain_index, new.chain_amount, w.address,
        '0/' || w.derivation_index, 'DEPOSIT', true
      from wallets w where w.id = new.wallet_id
      on conflict do nothing;
  end if;
  return new;
end $$;
create trigger transfers_chain_outputs after insert or update of status on transfers
  for each row execute function chain_outputs_from_deposit();

insert into chain_outputs (coin, txid, vout, units, address, path, source, confirmed)
  select t.coin, t.txid, t.chain_index, t.chain_amount, w.address, '0/' || w.derivation_index, 'DEPOSIT', true
  from transfers t join wallets w on w.id = t.wallet_id
  where t.type = 'DEPOSIT' and t.dest_type = 'EXTERNAL' and t.status = 'COMPLETED'
    and t.coin in ('BTC', 'TRX') and t.required_confirmations is not null
    and t.txid is not null and t.chain_index is not null and t.chain_amount is not null
  on conflict do nothing;
