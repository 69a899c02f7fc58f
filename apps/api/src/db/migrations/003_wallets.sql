-- Wallets (one per member and coin) and transfers (DECISIONS §5). Balances live in the ledger:
-- a wallet's balance is its owner's `available` account of that coin.
create table wallets (
  id bigint generated always as identity primary key,
  member_id bigint not null references members (id),
  coin text not null check (coin in ('BTC', 'ETH', 'XRP', 'TRX')),
  address text not null,
  derivation_index int not null,
  status text not null default 'ACTIVE' check (status in ('ACTIVE', 'DISABLED')),
  created_at timestamptz not null default now(),
  unique (member_id, coin),
  unique (coin, address),
  unique (coin, derivation_index)
);

-- The next BIP-32 child index per coin. Taking an index locks the coin's row, so concurrent wallet
-- creations get distinct indexes, and a rolled-back creation gives its index back.
create table derivation_counters (
  coin text primary key check (coin in ('BTC', 'ETH', 'XRP', 'TRX')),
  next_index int not null default 0 check (next_index >= 0)
);
insert into derivation_counters (coin) values ('BTC'), ('ETH'), ('XRP'), ('TRX');

create table transfers (
  id bigint generated always as identity primary key,
  wallet_id bigint not null references wallets (id),
  member_id bigint not null references members (id),
  coin text not null,
  type text not null check (type in ('WITHDRAW', 'DEPOSIT')),
  dest_type text not null check (dest_type in ('INTERNAL', 'EXTERNAL')),
  status text not null check (status in ('PENDING', 'COMPLETED', 'REJECTED')),
  -- the counterparty: destination address of a withdrawal, source address (if known) of a deposit
  address text not null,
  amount numeric(38, 8) not null check (amount > 0),
  fee numeric(38, 8) not null default 0 check (fee >= 0),
  txid text,
  chain_index int,
  counterpart_id bigint references transfers (id),
  buy_order_id bigint,
  -- who gets the amount back if the operator rejects an external withdrawal (the buyer, for an order's delivery)
  refund_member_id bigint references members (id),
  reason text,
  processed_by bigint references members (id),
  created_at timestamptz not null default now(),
  completed_at timestamptz
);
create index transfers_wallet_idx on transfers (wallet_id, id desc);
create index transfers_pending_idx on transfers (status, type, dest_type, id);
-- an on-chain deposit is credited once (DECISIONS §5: idempotent on coin + txid + index)
create unique index transfers_chain_deposit_key on transfers (coin, txid, chain_index)
  where type = 'DEPOSIT' and dest_type = 'EXTERNAL';
