-- The coin registry in the database: one row per coin of the contract's COIN_SPECS
-- (packages/contract/src/coins.ts). Every coin column references it instead of repeating a CHECK list, so a
-- new coin is one row inserted by a migration; its BIP-32 index counter comes with it (trigger below).
-- apps/api/src/chains/registry.test.ts checks that the rows and the registry list the same coins.
create table coins (
  code text primary key check (code ~ '^[A-Z][A-Z0-9]{1,9}$'),
  added_at timestamptz not null default now()
);

-- 003_wallets keeps one counter per coin; a coin added later gets its counter in the same statement.
create function coins_derivation_counter() returns trigger language plpgsql as $$
begin
  insert into derivation_counters (coin) values (new.code) on conflict (coin) do nothing;
  return new;
end $$;
create trigger coins_derivation_counter after insert on coins
  for each row execute function coins_derivation_counter();

insert into coins (code) values ('BTC'), ('ETH'), ('XRP'), ('TRX');

-- The CHECK lists of 001, 003 and 004 give way to foreign keys; ledger_postings and transfers had no
-- check and get one too. Existing rows all hold one of the four codes, so every key validates.
alter table ledger_accounts drop constraint ledger_accounts_coin_check,
  add constraint ledger_accounts_coin_fkey foreign key (coin) references coins (code);
alter table ledger_postings
  add constraint ledger_postings_coin_fkey foreign key (coin) references coins (code);
alter table wallets drop constraint wallets_coin_check,
  add constraint wallets_coin_fkey foreign key (coin) references coins (code);
alter table derivation_counters drop constraint derivation_counters_coin_check,
  add constraint derivation_counters_coin_fkey foreign key (coin) references coins (code);
alter table transfers
  add constraint transfers_coin_fkey foreign key (coin) references coins (code);
alter table sell_listings drop constraint sell_listings_coin_check,
  add constraint sell_listings_coin_fkey foreign key (coin) references coins (code);
alter table buy_orders drop constraint buy_orders_coin_check,
  add constraint buy_orders_coin_fkey foreign key (coin) references coins (code);
