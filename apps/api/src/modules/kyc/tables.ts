import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt } from '../../db/schema.ts';

type Ts = ColumnType<Date, Date | string, Date | string>;
/** A `date` column: read as 'yyyy-MM-dd' (db/client.ts keeps dates as text), written as the same. */
type DateText = ColumnType<string, string, string>;

/** An identity verification in progress (DECISIONS §19, 021_kyc.sql). */
export interface KycIdentityRequestsTable {
  id: Generated<number>;
  member_id: number;
  provider: string;
  provider_ref: string;
  name: string;
  birth_date: DateText;
  tries: Generated<number>;
  expires_at: Ts;
  verified_at: Ts | null;
  created_at: CreatedAt;
}

/** A member's verified identity (level 1). */
export interface KycIdentitiesTable {
  member_id: number;
  verified_name: string;
  birth_date: DateText;
  provider: string;
  request_id: number;
  verified_at: CreatedAt;
}

/** An ID document for review (level 2); `sealed` is AES-256-GCM (iv 12 | tag 16 | ciphertext). */
export interface KycDocumentsTable {
  id: Generated<number>;
  member_id: number;
  status: Generated<'PENDING' | 'APPROVED' | 'REJECTED'>;
  content_type: 'image/jpeg' | 'image/png';
  width: number;
  height: number;
  byte_size: number;
  key_id: string;
  sealed: Buffer;
  reason: string | null;
  reviewed_by: number | null;
  reviewed_at: Ts | null;
  created_at: CreatedAt;
}

/** Tables of the kyc module (021_kyc.sql). */
export interface KycTables {
  kyc_identity_requests: KycIdentityRequestsTable;
  kyc_identities: KycIdentitiesTable;
  kyc_documents: KycDocumentsTable;
}
