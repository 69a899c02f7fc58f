import type { Coin, TransferStatus } from '@p2p/contract';
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Numeric } from '../../db/schema.ts';

export interface WalletsTable {
  id: Generated<number>;
  member_id: number;
  coin: Coin;
  address: string;
  derivation_index: number;
  /** XRP only: the wallet's destination tag at the platform account (1..2^32-1; DECISIONS §17). */
  destination_tag: ColumnType<number | null, number | null | undefined, number | null>;
  status: Generated<'ACTIVE' | 'DISABLED'>;
  created_at: CreatedAt;
}

export interface TransfersTable {
  id: Generated<number>;
  wallet_id: number;
  member_id: number;
  coin: Coin;
  type: 'WITHDRAW' | 'DEPOSIT';
  dest_type: 'INTERNAL' | 'EXTERNAL';
  status: TransferStatus;
  address: string;
  amount: Numeric;
  fee: ColumnType<string, string | undefined, string>;
  txid: string | null;
  chain_index: number | null;
  /** XRP withdrawals: the destination tag to pay with (0..2^32-1), else null. */
  dest_tag: ColumnType<number | null, number | null | undefined, number | null>;
  counterpart_id: number | null;
  buy_order_id: number | null;
  refund_member_id: number | null;
  reason: string | null;
  processed_by: number | null;
  created_at: CreatedAt;
  completed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** DECISIONS §17, a deposit the chain watcher found (018_chain_deposits.sql); null on every other row. */
  confirmations: number | null;
  required_confirmations: number | null;
  block_height: number | null;
  block_hash: string | null;
  /** Where the chain forked when the deposit's block left it (cleared when it is back in a block). */
  fork_height: number | null;
  /** The amount in the chain's own unit (satoshi, wei, drop, sun), a decimal integer string. */
  chain_amount: string | null;
  /** DECISIONS §18 (019_withdrawal_pipeline.sql): who approved an external withdrawal (null: by itself) and when. */
  approved_by: ColumnType<number | null, number | null | undefined, number | null>;
  approved_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Why the payout worker could not go on, and when it may try again. */
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  last_error_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  next_try_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface DerivationCountersTable {
  coin: Coin;
  next_index: ColumnType<number, number | undefined, number>;
}

/** DECISIONS §19: the Travel Rule record of a large external withdrawal (022_bank_holds_travel_rule.sql). */
export interface WithdrawalTravelRuleTable {
  transfer_id: number;
  originator_name: string;
  beneficiary_name: string;
  beneficiary_kind: 'VASP' | 'SELF_HOSTED';
  vasp_name: string | null;
  value_krw: ColumnType<string | null, number | null, number | null>;
  provider: string;
  provider_ref: string | null;
  created_at: CreatedAt;
}

/** Tables of the wallets module (003_wallets.sql). */
export interface WalletTables {
  wallets: WalletsTable;
  transfers: TransfersTable;
  derivation_counters: DerivationCountersTable;
  withdrawal_travel_rule: WithdrawalTravelRuleTable;
}
