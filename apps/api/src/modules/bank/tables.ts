import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt } from '../../db/schema.ts';

type Ts = ColumnType<Date, Date | string, Date | string>;

/** One 1원 request (DECISIONS §19, 022_bank_holds_travel_rule.sql). */
export interface BankVerificationsTable {
  id: Generated<number>;
  member_id: number;
  bank_name: string;
  account_no: string;
  code_hash: string;
  holder_name: string;
  tries: Generated<number>;
  expires_at: Ts;
  used_at: Ts | null;
  created_at: CreatedAt;
}

/** A member's verified bank account: the one listings pay into. */
export interface BankAccountsTable {
  member_id: number;
  bank_name: string;
  account_no: string;
  holder_name: string;
  verified_at: CreatedAt;
}

/** Tables of the bank module. */
export interface BankTables {
  bank_verifications: BankVerificationsTable;
  bank_accounts: BankAccountsTable;
}
