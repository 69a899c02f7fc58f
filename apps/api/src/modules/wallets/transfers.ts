import {
  type Coin,
  fromUnits,
  type Transfer,
  type TransferPage,
  type TransferRequestBody,
  toUnits,
} from '@p2p/contract';
import { isValidAddress, normalizeAddress, xrpDepositAccount } from '../../chains/index.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { qty } from '../../db/numeric.ts';
import { inTx } from '../../db/tx.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors/index.ts';
import { decodeIdCursor, encodeIdCursor } from '../../http/cursor.ts';
import { toPage } from '../../http/page.ts';
import { movements, post } from '../../ledger/index.ts';
import { requireStepUp } from '../identity/index.ts';
import { requireKycLevel } from '../kyc/index.ts';
import { assertNotHeld } from './holds.ts';
import { walletByDestinationTag } from './repo.ts';
import {
  activeWalletByAddress,
  countTransfersOfWallet,
  insertTransferRow,
  linkCounterpartRow,
  transfersOfWallet,
} from './repo-transfers.ts';
import { ownWallet, shownAddress, type TransferRow, type WalletRow } from './service.ts';
import { recordTravelRule, travelRuleDraft } from './travel-rule.ts';

/** EXPLORER_TX_URL_<COIN> per coin (DECISIONS §18): a template with `{txid}`. */
export type ExplorerTemplates = Partial<Record<Coin, string>>;

/**
 * The wire shape of a transfer row (SPEC §3 "Transfer"); `explorer` links a txid to the coin's explorer
 * (DECISIONS §18), none when the coin has no template.
 */
export function transferOut(t: TransferRow, explorer: ExplorerTemplates = {}): Transfer {
  const template = explorer[t.coin];
  return {
    transferId: t.id,
    walletId: t.wallet_id,
    coinCode: t.coin,
    type: t.type,
    destType: t.dest_type,
    status: t.status,
    address: t.address,
    amount: qty(t.amount),
    fee: qty(t.fee),
    destTag: t.dest_tag,
    txid: t.txid,
    explorerUrl: template && t.txid ? template.replaceAll('{txid}', encodeURIComponent(t.txid)) : null,
    confirmations: t.confirmations,
    requiredConfirmations: t.required_confirmations,
    createdAt: t.created_at.toISOString(),
    completedAt: t.completed_at ? t.completed_at.toISOString() : null,
    reason: t.status === 'REJECTED' ? t.reason : null,
    buyOrderId: t.buy_order_id,
  };
}

/**
 * GET /transfer: the transfers of one of the caller's wallets, newest first, `size` per page with an
 * opaque keyset cursor and the wallet's total count. Another member's wallet -> 404 WALLET_NOT_FOUND.
 */
export async function listTransfers(
  db: DbOrTx,
  memberId: number,
  q: { walletId: number; cursor?: string; size: number },
  explorer: ExplorerTemplates = {},
): Promise<TransferPage> {
  await ownWallet(db, memberId, q.walletId);
  const beforeId = q.cursor ? decodeIdCursor('transfers', q.cursor) : undefined;
  const rows = await transfersOfWallet(db, q.walletId, beforeId, q.size + 1);
  const count = await countTransfersOfWallet(db, q.walletId);
  return toPage(
    rows,
    q.size,
    count,
    (r) => transferOut(r, explorer),
    (r) => encodeIdCursor('transfers', r.id),
  );
}

/**
 * POST /transfer/request (SPEC §5 "Withdraw", DECISIONS §5). INTERNAL: to another member's ACTIVE wallet
 * of the same coin, instant, one ledger entry available -> available and a row on each side linked by
 * counterpart_id. EXTERNAL: to a checksum-valid address; amount + the coin's withdrawal fee leave the
 * available balance (amount -> withdrawal_pending, fee -> fees) and the row stays PENDING for the
 * operator. Both need `stepUp` (DECISIONS §13, requireStepUp: 422 STEP_UP_REQUIRED, 400
 * INVALID_CREDENTIALS / CODE_*, 429 RATE_LIMITED), checked after the address and before the ledger entry:
 * an internal transfer cannot be undone either, and a thief can sign up their own account to receive it.
 *
 * XRP (DECISIONS §17): `destTag` (0..2^32-1) is stored with the row and paid with. Every member's XRP address
 * is the platform's receiving account, so a destination equal to it, INTERNAL or EXTERNAL, names a member by
 * `destTag` and is an internal transfer (the chain refuses a payment from an account to itself): without a
 * tag 400 VALIDATION_FAILED {destTag: REQUIRED}, an unknown tag 404 WALLET_NOT_FOUND, the caller's own tag
 * 422 SELF_TRANSFER. A tag on another coin is 400 VALIDATION_FAILED {destTag: INVALID_FORMAT}.
 * Errors: 404 WALLET_NOT_FOUND (source not the caller's, or no such destination wallet), 400
 * INVALID_ADDRESS, 422 SELF_TRANSFER, 422 INSUFFICIENT_BALANCE (decided by the ledger's constraint, so
 * concurrent requests can never overdraw). Returns the sender's transfer row.
 * DECISIONS §19 on EXTERNAL: 422 TRAVEL_RULE_INFO_REQUIRED {minKrw} (travel-rule.ts, before the step-up) and
 * 422 WITHDRAWAL_HELD {until, heldAmount} (holds.ts, in the transaction under the wallet's row lock).
 */
export async function requestTransfer(
  deps: Pick<AppDeps, 'db' | 'config' | 'redis'>,
  memberId: number,
  body: TransferRequestBody,
): Promise<TransferRow> {
  const from = await ownWallet(deps.db, memberId, body.fromWalletId);
  if (from.status !== 'ACTIVE') throw new AppError('WALLET_NOT_FOUND');
  const units = toUnits(body.amount);
  const coin = from.coin;
  const network = deps.config.chain.network;
  const destTag = body.destTag ?? null;
  if (destTag !== null && coin !== 'XRP') {
    throw new AppError('VALIDATION_FAILED', { fields: { destTag: 'INVALID_FORMAT' } });
  }
  const raw = (body.destType === 'INTERNAL' ? body.destInternalAddress : body.destExternalAddress) ?? '';
  const valid = isValidAddress(coin, raw, network);
  const address = valid ? normalizeAddress(coin, raw) : raw;
  if (coin === 'XRP' && address === xrpDepositAccount()) {
    if (destTag === null) throw new AppError('VALIDATION_FAILED', { fields: { destTag: 'REQUIRED' } });
    if (destTag === from.destination_tag) throw new AppError('SELF_TRANSFER');
    await requireStepUp(deps, memberId, body.stepUp);
    return inTx(deps.db, (tx) =>
      internalTransfer(tx, from, units, async () => {
        const to = await walletByDestinationTag(tx, destTag);
        return to?.status === 'ACTIVE' ? to : undefined;
      }),
    );
  }
  if (body.destType === 'INTERNAL') {
    if (address === from.address) throw new AppError('SELF_TRANSFER');
    // An internal transfer is as final as an external one, and a thief's own account is one signup away.
    await requireStepUp(deps, memberId, body.stepUp);
    return inTx(deps.db, (tx) =>
      internalTransfer(tx, from, units, () => activeWalletByAddress(tx, coin, address)),
    );
  }
  if (!valid) throw new AppError('INVALID_ADDRESS');
  if (address === from.address) throw new AppError('SELF_TRANSFER');
  const fee = toUnits(deps.config.chain.withdrawFees[coin]);
  // DECISIONS §19: coins leave the platform only from a verified member (levels only rise: no lock needed).
  await requireKycLevel(deps.db, memberId, deps.config.kyc.tradeLevel);
  const travel = await travelRuleDraft(deps, memberId, coin, fromUnits(units), body.beneficiary);
  // After the cheap input checks (a typo costs no step-up try), before anything moves.
  await requireStepUp(deps, memberId, body.stepUp);
  return inTx(deps.db, async (tx) => {
    await assertNotHeld(tx, deps.config.trust.holds, from, units + fee);
    const row = await externalWithdrawal(tx, from, address, destTag, units, fee);
    if (travel)
      await recordTravelRule(tx, travel, { transferId: row.id, coin, amount: fromUnits(units), address });
    return row;
  });
}

async function internalTransfer(
  tx: Tx,
  from: WalletRow,
  units: bigint,
  findDestination: () => Promise<WalletRow | undefined>,
): Promise<TransferRow> {
  const coin: Coin = from.coin;
  const to = await findDestination();
  // A DISABLED wallet (a closed membership's, DECISIONS §19) receives nothing more from members.
  if (to?.status !== 'ACTIVE') throw new AppError('WALLET_NOT_FOUND');
  if (to.member_id === from.member_id) throw new AppError('SELF_TRANSFER');
  const now = new Date();
  const common = {
    coin,
    dest_type: 'INTERNAL',
    status: 'COMPLETED',
    amount: fromUnits(units),
    completed_at: now,
  } as const;
  // Each side sees the other's deposit address as members are shown it (XRP: the platform account and tag).
  const out = await insertTransferRow(tx, {
    ...common,
    wallet_id: from.id,
    member_id: from.member_id,
    type: 'WITHDRAW',
    address: shownAddress(to),
    dest_tag: to.destination_tag,
  });
  const inbound = await insertTransferRow(tx, {
    ...common,
    wallet_id: to.id,
    member_id: to.member_id,
    type: 'DEPOSIT',
    address: shownAddress(from),
    dest_tag: from.destination_tag,
    counterpart_id: out.id,
  });
  const linked = await linkCounterpartRow(tx, out.id, inbound.id);
  await post(
    tx,
    movements.internalTransfer({
      transferId: out.id,
      fromMemberId: from.member_id,
      toMemberId: to.member_id,
      coin,
      units,
    }),
  );
  return linked;
}

async function externalWithdrawal(
  tx: Tx,
  from: WalletRow,
  address: string,
  destTag: number | null,
  units: bigint,
  fee: bigint,
): Promise<TransferRow> {
  const coin: Coin = from.coin;
  const row = await insertTransferRow(tx, {
    wallet_id: from.id,
    member_id: from.member_id,
    coin,
    type: 'WITHDRAW',
    dest_type: 'EXTERNAL',
    status: 'PENDING',
    address,
    dest_tag: destTag,
    amount: fromUnits(units),
    fee: fromUnits(fee),
  });
  await post(
    tx,
    movements.withdrawalRequest({ transferId: row.id, memberId: from.member_id, coin, units, fee }),
  );
  return row;
}
