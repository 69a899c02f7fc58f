import type { LoginResult } from '@p2p/contract';
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt } from '../../db/schema.ts';

type Ts = ColumnType<Date, Date | string, Date | string>;

export interface SmsCodesTable {
  id: Generated<number>;
  phone_e164: string;
  purpose: 'signup' | 'member' | 'reset' | 'phone_change';
  code_hash: string;
  expires_at: Ts;
  tries: Generated<number>;
  verified_at: Ts | null;
  member_id: number | null;
  ip: string | null;
  created_at: CreatedAt;
}

export interface RefreshTokensTable {
  id: Generated<number>;
  member_id: number;
  family_id: string;
  token_hash: string;
  expires_at: Ts;
  rotated_at: Ts | null;
  revoked_at: Ts | null;
  created_at: CreatedAt;
}

export interface ResetTicketsTable {
  id: Generated<number>;
  member_id: number;
  ticket_hash: string;
  expires_at: Ts;
  used_at: Ts | null;
  created_at: CreatedAt;
}

/** One sign-in attempt of a known member (023_records.sql, DECISIONS §19): the access log, kept 90 days. */
export interface LoginAttemptsTable {
  id: Generated<number>;
  member_id: number;
  at: CreatedAt;
  ip: string;
  user_agent: string | null;
  result: LoginResult;
}

/** Tables of the identity module (002_identity.sql, 023_records.sql). */
export interface IdentityTables {
  sms_codes: SmsCodesTable;
  refresh_tokens: RefreshTokensTable;
  reset_tickets: ResetTicketsTable;
  login_attempts: LoginAttemptsTable;
}
