import type { Coin } from '@p2p/contract';
import type { ColumnType, Generated } from 'kysely';
import type { BankTables } from '../modules/bank/tables.ts';
import type { BlocksTables } from '../modules/blocks/tables.ts';
import type { ChatTables } from '../modules/chat/tables.ts';
import type { DepositTables } from '../modules/deposits/tables.ts';
import type { EventTables } from '../modules/events/tables.ts';
import type { IdentityTables } from '../modules/identity/tables.ts';
import type { KycTables } from '../modules/kyc/tables.ts';
import type { ListingsTables } from '../modules/listings/tables.ts';
import type { NotificationTables } from '../modules/notifications/tables.ts';
import type { OpsTables } from '../modules/operators/tables.ts';
import type { OrdersTables } from '../modules/orders/tables.ts';
import type { RecordsTables } from '../modules/records/tables.ts';
import type { ReservesTables } from '../modules/reserves/tables.ts';
import type { WalletTables } from '../modules/wallets/tables.ts';
import type { WithdrawalTables } from '../modules/withdrawals/tables.ts';

/** A timestamptz column: Date when read, optional on insert (defaults to now()). */
export type CreatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
/** A NUMERIC(38,8) coin amount: always a decimal string, never a float (DECISIONS §3). */
export type Numeric = ColumnType<string, string, string>;

export interface MembersTable {
  id: Generated<number>;
  login_id: string;
  nickname: string;
  name: string;
  country_code: string;
  phone_e164: string;
  password_hash: string;
  bank_name: string | null;
  account_no: string | null;
  role: Generated<'MEMBER' | 'OPERATOR'>;
  status: Generated<'ACTIVE' | 'SUSPENDED' | 'CLOSED'>;
  suspended_reason: string | null;
  /** DECISIONS §19: 0 phone only, 1 identity verified, 2 ID document reviewed (021_kyc.sql). */
  kyc_level: Generated<number>;
  created_at: CreatedAt;
  updated_at: CreatedAt;
  /** DECISIONS §19: set when the membership closed (status CLOSED), and when the purge anonymized it. */
  closed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  purged_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface LedgerAccountsTable {
  id: Generated<number>;
  member_id: number | null;
  coin: string;
  kind: string;
  balance: ColumnType<string, string | undefined, string>;
}

export interface LedgerEntriesTable {
  id: Generated<number>;
  ref: string;
  kind: string;
  memo: string | null;
  created_at: CreatedAt;
}

export interface LedgerPostingsTable {
  id: Generated<number>;
  entry_id: number;
  account_id: number;
  coin: string;
  amount: Numeric;
}

/** The coin registry's rows (012_coins.sql): every coin column references `coins.code`. */
export interface CoinsTable {
  code: Coin;
  added_at: CreatedAt;
}

export interface CoreTables {
  coins: CoinsTable;
  members: MembersTable;
  ledger_accounts: LedgerAccountsTable;
  ledger_entries: LedgerEntriesTable;
  ledger_postings: LedgerPostingsTable;
  schema_migrations: { name: string; applied_at: CreatedAt };
}

/** Every table, composed from each module's own declarations. */
export interface DB
  extends CoreTables,
    IdentityTables,
    WalletTables,
    ListingsTables,
    OrdersTables,
    OpsTables,
    ChatTables,
    EventTables,
    NotificationTables,
    DepositTables,
    ReservesTables,
    KycTables,
    BlocksTables,
    RecordsTables,
    WithdrawalTables,
    BankTables {}
