-- Withdrawals signed outside the API (DECISIONS §18): the states of an external withdrawal, its attempts (the
-- signer's requestId, the reservation, the intent, the signed transaction and its txid, stored before it is
-- sent), the sweeps of deposit addresses to the hot address, nonces assigned under a row lock, the payout
-- worker's lease, the network fee account and the member's WITHDRAWAL_* notifications.

alter table transfers drop constraint transfers_status_check;
alter table transfers add constraint transfers_status_check
  check (status in ('PENDING', 'APPROVED', 'BROADCAST', 'COMPLETED', 'FAILED', 'REJECTED', 'DROPPED',
    'BELOW_MINIMUM'));
-- approved_by null with approved_at set: approved by itself (amount <= WITHDRAW_AUTO_MAX_<COIN>).
-- last_error: why the payout worker could not go on (a signer refusal, a node error, the failure reason);
-- next_try_at: the worker leaves an APPROVED withdrawal alone until then after such an error.
alter table transfers
  add column approved_by bigint references members (id),
  add column approved_at timestamptz,
  add column last_error text,
  add column last_error_at timestamptz,
  add column next_try_at timestamptz;
create index transfers_payout_idx on transfers (coin, status, id)
  where type = 'WITHDRAW' and dest_type = 'EXTERNAL' and status in ('PENDING', 'APPROVED', 'BROADCAST');

-- One row per try of paying a withdrawal: the first is `withdrawal:<id>`, a replacement of a FAILED one
-- `withdrawal:<id>:r<n>` spending the same inputs / nonce (reservation). The intent is stored before the signer
-- is asked, so a crash between the two asks again with the same intent (the signer answers from its journal);
-- signed_tx and txid are stored before the transaction is sent, so a restart sends the same bytes again.
create table withdrawal_attempts (
  id bigint generated always as identity primary key,
  transfer_id bigint not null references transfers (id),
  coin text not null references coins (code),
  seq int not null check (seq >= 0),
  request_id text not null unique,
  replaces_id bigint references withdrawal_attempts (id),
  reservation jsonb not null,
  intent jsonb not null,
  status text not null default 'PREPARED'
    check (status in ('PREPARED', 'BROADCAST', 'CONFIRMED', 'FAILED')),
  signed_tx text,
  txid text,
  network_fee numeric(38, 8) check (network_fee >= 0),
  error text,
  created_at timestamptz not null default now(),
  broadcast_at timestamptz,
  settled_at timestamptz,
  unique (transfer_id, seq),
  constraint withdrawal_attempts_signed check (status = 'PREPARED' or (signed_tx is not null and txid is not null))
);
-- At most one attempt of a withdrawal is being paid at a time.
create unique index withdrawal_attempts_live on withdrawal_attempts (transfer_id)
  where status in ('PREPARED', 'BROADCAST');
create index withdrawal_attempts_open on withdrawal_attempts (coin, status, id)
  where status in ('PREPARED', 'BROADCAST');

-- Account-based chains (ETH, TRX): credited deposits are swept from their address (0/i) to the hot address (1/0),
-- each sweep signed under `sweep:<COIN>:<id>`. through_transfer_id: the newest credited deposit of the wallet
-- the sweep covers, so a wallet is swept again only after a new deposit.
create table chain_sweeps (
  id bigint generated always as identity primary key,
  coin text not null references coins (code),
  wallet_id bigint not null references wallets (id),
  from_address text not null,
  to_address text not null,
  through_transfer_id bigint not null references transfers (id),
  reservation jsonb,
  intent jsonb,
  chain_amount numeric(78, 0) check (chain_amount > 0),
  status text not null default 'PREPARED' check (status in ('PREPARED', 'BROADCAST', 'CONFIRMED', 'FAILED')),
  signed_tx text,
  txid text,
  network_fee numeric(38, 8) check (network_fee >= 0),
  error text,
  created_at timestamptz not null default now(),
  broadcast_at timestamptz,
  settled_at timestamptz,
  constraint chain_sweeps_signed check (status = 'PREPARED' or (signed_tx is not null and txid is not null))
);
create unique index chain_sweeps_live on chain_sweeps (wallet_id) where status in ('PREPARED', 'BROADCAST');
create index chain_sweeps_open on chain_sweeps (coin, status, id) where status in ('PREPARED', 'BROADCAST');

-- The next nonce of a sending address (ETH, TRX permission-less sequence), taken under the row's lock.
create table chain_nonces (
  coin text not null references coins (code),
  address text not null,
  next_nonce bigint not null check (next_nonce >= 0),
  updated_at timestamptz not null default now(),
  primary key (coin, address)
);

-- Per coin: the active payout worker's lease (one instance of all pays), like chain_watchers.
create table payout_workers (
  coin text primary key references coins (code),
  holder text,
  lease_until timestamptz,
  last_run_at timestamptz,
  last_error text,
  last_error_at timestamptz,
  updated_at timestamptz not null default now()
);

-- The platform pays the network fee (DECISIONS §18): a platform account `network_fee` per coin ("network-fee:<COIN>").
alter table ledger_accounts drop constraint ledger_accounts_kind_check;
alter table ledger_accounts add constraint ledger_accounts_kind_check
  check (kind in ('available', 'escrow', 'chain', 'withdrawal_pending', 'fees', 'network_fee'));
alter table ledger_accounts drop constraint ledger_accounts_owner;
alter table ledger_accounts add constraint ledger_accounts_owner
  check ((member_id is null) = (kind in ('chain', 'withdrawal_pending', 'fees', 'network_fee')));

alter table notifications drop constraint notifications_kind_check;
alter table notifications add constraint notifications_kind_check
  check (kind in ('ORDER_REQUESTED', 'ORDER_PAID', 'ORDER_COMPLETED', 'ORDER_EXPIRED',
    'ORDER_CANCELED', 'ORDER_REJECTED', 'DISPUTE_OPENED', 'DISPUTE_RESOLVED', 'MESSAGE',
    'LISTING_APPROVED', 'LISTING_REJECTED', 'DEPOSIT_CREDITED', 'WITHDRAWAL_COMPLETED', 'WITHDRAWAL_FAILED'));
