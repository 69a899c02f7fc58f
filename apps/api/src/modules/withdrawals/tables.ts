import type { Coin } from '@p2p/contract';
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt } from '../../db/schema.ts';

type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json = ColumnType<Record<string, unknown>, string, string>;

/** Where a try of sending stands (019_withdrawal_pipeline.sql). */
export type SendStatus = 'PREPARED' | 'BROADCAST' | 'CONFIRMED' | 'FAILED';

/** One try of paying an external withdrawal (DECISIONS §18). */
export interface WithdrawalAttemptsTable {
  id: Generated<number>;
  transfer_id: number;
  coin: Coin;
  seq: number;
  request_id: string;
  replaces_id: number | null;
  reservation: Json;
  intent: Json;
  status: ColumnType<SendStatus, SendStatus | undefined, SendStatus>;
  signed_tx: string | null;
  txid: string | null;
  network_fee: string | null;
  error: string | null;
  created_at: CreatedAt;
  broadcast_at: NullableTime;
  settled_at: NullableTime;
}

/** A sweep of a deposit address to the hot address (ETH, TRX). */
export interface ChainSweepsTable {
  id: Generated<number>;
  coin: Coin;
  wallet_id: number;
  from_address: string;
  to_address: string;
  through_transfer_id: number;
  reservation: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  intent: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  chain_amount: string | null;
  status: ColumnType<SendStatus, SendStatus | undefined, SendStatus>;
  signed_tx: string | null;
  txid: string | null;
  network_fee: string | null;
  error: string | null;
  created_at: CreatedAt;
  broadcast_at: NullableTime;
  settled_at: NullableTime;
}

export interface ChainNoncesTable {
  coin: Coin;
  address: string;
  next_nonce: number;
  updated_at: CreatedAt;
}

export interface PayoutWorkersTable {
  coin: Coin;
  holder: string | null;
  lease_until: NullableTime;
  last_run_at: NullableTime;
  last_error: string | null;
  last_error_at: NullableTime;
  updated_at: CreatedAt;
}

/** Tables of the withdrawals module. */
export interface WithdrawalTables {
  withdrawal_attempts: WithdrawalAttemptsTable;
  chain_sweeps: ChainSweepsTable;
  chain_nonces: ChainNoncesTable;
  payout_workers: PayoutWorkersTable;
}
