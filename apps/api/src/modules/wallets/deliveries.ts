import type { Coin, DestType } from '@p2p/contract';
import type { Tx } from '../../db/client.ts';
import { dbNow, insertTransfer, linkCounterpart, walletAddress } from './repo.ts';

/** What a completed buy order delivers (DECISIONS §4 "Seller completes"), as the wallets module records it. */
export interface Delivery {
  orderId: number;
  coin: Coin;
  sellerId: number;
  /** The seller's wallet the listing sells from. */
  sellerWalletId: number;
  buyerId: number;
  destType: DestType;
  /** The buyer's wallet for an INTERNAL delivery (null for EXTERNAL). */
  destWalletId: number | null;
  /** Where the coins go: the outside address (EXTERNAL) or the buyer's deposit address (INTERNAL). */
  destAddress: string;
  /** Delivered quantity after the trade fee, and that fee: decimal strings. */
  amount: string;
  fee: string;
}

/**
 * Writes the transfer rows of a buy order's delivery inside the order's transaction (the ledger entry is the
 * caller's): the seller's WITHDRAW, COMPLETED for INTERNAL, PENDING for EXTERNAL (the operator sends it, and a
 * rejection refunds the buyer: refund_member_id); for INTERNAL also the buyer's DEPOSIT, the two rows linked by
 * counterpart_id. The wallets module owns the transfers table, so the orders module calls this instead.
 */
export async function recordDelivery(tx: Tx, d: Delivery): Promise<void> {
  const internal = d.destType === 'INTERNAL';
  const withdrawId = await insertTransfer(tx, {
    wallet_id: d.sellerWalletId,
    member_id: d.sellerId,
    coin: d.coin,
    type: 'WITHDRAW',
    dest_type: d.destType,
    status: internal ? 'COMPLETED' : 'PENDING',
    address: d.destAddress,
    amount: d.amount,
    fee: d.fee,
    txid: null,
    chain_index: null,
    counterpart_id: null,
    buy_order_id: d.orderId,
    refund_member_id: internal ? null : d.buyerId,
    reason: null,
    processed_by: null,
    completed_at: internal ? dbNow() : null,
  });
  if (!internal || d.destWalletId === null) return;
  const sellerAddress = await walletAddress(tx, d.sellerWalletId);
  const depositId = await insertTransfer(tx, {
    wallet_id: d.destWalletId,
    member_id: d.buyerId,
    coin: d.coin,
    type: 'DEPOSIT',
    dest_type: 'INTERNAL',
    status: 'COMPLETED',
    address: sellerAddress,
    amount: d.amount,
    fee: d.fee,
    txid: null,
    chain_index: null,
    counterpart_id: withdrawId,
    buy_order_id: d.orderId,
    refund_member_id: null,
    reason: null,
    processed_by: null,
    completed_at: dbNow(),
  });
  await linkCounterpart(tx, withdrawId, depositId);
}
