import { randomInt } from 'node:crypto';
import { type Coin, fromUnits, toUnits, type Wallet } from '@p2p/contract';
import {
  chainKeys,
  depositAddress,
  isValidAddress,
  normalizeAddress,
  xrpDepositAccount,
} from '../../chains/index.ts';
import { canonicalTxid } from '../../chains/txid.ts';
import type { DbOrTx } from '../../db/client.ts';
import { qty } from '../../db/numeric.ts';
import { inTx } from '../../db/tx.ts';
import { AppError } from '../../errors/index.ts';
import { movements, post } from '../../ledger/index.ts';
import {
  depositTransferOf,
  hasWallet,
  insertDepositTransfer,
  insertWallet,
  type TransferRow,
  takeDerivationIndex,
  type WalletRow,
  walletByAddress,
  walletByDestinationTag,
  walletOfMember,
  walletsWithBalances,
} from './repo.ts';

export { findActiveWallet, type TransferRow, type WalletRow, walletByDestinationTag } from './repo.ts';

/** The largest XRP destination tag plus one (a tag is a UInt32; DECISIONS §17). */
const TAG_END = 2 ** 32;

/**
 * A fresh XRP destination tag, uniformly random in 1..2^32-1 (0 is left out: some wallets send 0 for an
 * empty tag field). Random rather than sequential: a mistyped tag (a digit dropped or swapped, one off) then
 * almost never names another member, so the payment waits as UNMATCHED for an operator instead of crediting
 * a stranger; and tags tell nothing about how many members there are or when one signed up.
 */
export function randomDestinationTag(): number {
  return randomInt(1, TAG_END);
}

/**
 * The deposit address the member is shown and pays to (DECISIONS §5, §17): the wallet's own derived address,
 * except XRP, where every member pays the platform's receiving account with their wallet's destination tag.
 */
export function shownAddress(w: { coin: Coin; address: string }): string {
  return w.coin === 'XRP' ? xrpDepositAccount() : w.address;
}

/**
 * Creates the member's wallet of `coin` with the deposit address of the coin's next derivation index
 * (DECISIONS §5) and, for XRP, a random unique destination tag (DECISIONS §17, randomDestinationTag). Takes
 * the index under the coin's counter row lock, so concurrent creations never share one; an index whose address
 * is somehow taken (e.g. a development seed replaced under an existing database), or is the XRP platform
 * account (0/0 when XRP_DEPOSIT_ACCOUNT is not set), is skipped, and so is a tag drawn twice. Throws AppError
 * WALLET_EXISTS when the member has a wallet of that coin, also when a concurrent call created it first. Runs
 * in `db` when it is a transaction, else in its own.
 */
export async function createWallet(db: DbOrTx, memberId: number, coin: Coin): Promise<WalletRow> {
  return inTx(db, async (tx) => {
    if (await hasWallet(tx, memberId, coin)) throw new AppError('WALLET_EXISTS');
    for (let attempt = 0; attempt < 10; attempt++) {
      const index = await takeDerivationIndex(tx, coin);
      const address = depositAddress(coin, index);
      if (coin === 'XRP' && address === xrpDepositAccount()) continue;
      const destinationTag = coin === 'XRP' ? randomDestinationTag() : null;
      const inserted = await insertWallet(tx, { memberId, coin, address, index, destinationTag });
      if (inserted) return inserted;
      if (await hasWallet(tx, memberId, coin)) throw new AppError('WALLET_EXISTS');
    }
    throw new Error(`no free derivation index found for ${coin}`);
  });
}

/** A wallet with its balances; the member route adds the configured withdrawal fee. */
export type WalletBalances = Omit<Wallet, 'withdrawFee' | 'withdrawableBalance' | 'heldUntil'>;

/**
 * The member's wallets with their balances (DECISIONS §4: `balance` is the available balance, escrow
 * shown apart), in coin order of creation; XRP with the platform account and the wallet's destination tag
 * (DECISIONS §17), other coins with their own address and a null tag.
 */
export async function listWallets(db: DbOrTx, memberId: number): Promise<WalletBalances[]> {
  const rows = await walletsWithBalances(db, memberId);
  return rows.map((r) => ({
    id: r.id,
    coinCode: r.coin,
    balance: qty(r.available),
    escrowBalance: qty(r.escrow),
    address: shownAddress(r),
    destinationTag: r.destination_tag,
    status: r.status,
    createdAt: r.created_at.toISOString(),
  }));
}

/** One wallet of the member by id, or AppError WALLET_NOT_FOUND (another member's id included). */
export async function ownWallet(db: DbOrTx, memberId: number, walletId: number): Promise<WalletRow> {
  const w = await walletOfMember(db, memberId, walletId);
  if (!w) throw new AppError('WALLET_NOT_FOUND');
  return w;
}

/**
 * The member's ACTIVE wallet `walletId` (the source of a listing or a transfer): 404 WALLET_NOT_FOUND when it is
 * not theirs or not active, so a stranger's wallet id tells nothing.
 */
export async function ownActiveWallet(db: DbOrTx, memberId: number, walletId: number): Promise<WalletRow> {
  const w = await ownWallet(db, memberId, walletId);
  if (w.status !== 'ACTIVE') throw new AppError('WALLET_NOT_FOUND');
  return w;
}

export interface DepositInput {
  coin: Coin;
  /** The platform deposit address the coins arrived at. */
  address: string;
  /** Decimal string, > 0, at most 8 decimals. */
  amount: string;
  txid: string;
  /** Output (or event) index inside the transaction. */
  index: number;
  /** XRP: the payment's destination tag, which names the wallet when `address` is the platform account. */
  destinationTag?: number | null;
}

/**
 * Credits an on-chain deposit to the wallet owning `address` (DECISIONS §5): a COMPLETED DEPOSIT transfer
 * and one ledger entry chain -> available, in `db`'s transaction (or a new one). Idempotent on coin +
 * txid + index (the txid in the chain watcher's spelling, chains/txid.ts): a repeat returns the existing
 * transfer with `created: false` and moves nothing; a repeat naming another address or amount is 409
 * DUPLICATE_ENTRY; an output the chain watcher found first and has not credited (PENDING, DROPPED,
 * BELOW_MINIMUM) is 409 INVALID_STATE {status}: the watcher settles it (DECISIONS §17). Throws 400
 * INVALID_ADDRESS for an address that is not one of the coin, 404 WALLET_NOT_FOUND when no wallet owns it. An
 * XRP deposit to the platform account is the wallet's of `destinationTag` (DECISIONS §17): without one, 400
 * VALIDATION_FAILED {destinationTag: REQUIRED}; a tag on another coin, {destinationTag: INVALID_FORMAT}.
 */
export async function creditDeposit(
  db: DbOrTx,
  given: DepositInput,
): Promise<{ transfer: TransferRow; created: boolean }> {
  const units = toUnits(given.amount);
  if (units <= 0n) throw new AppError('VALIDATION_FAILED', { fields: { amount: 'AMOUNT_NOT_POSITIVE' } });
  if (!isValidAddress(given.coin, given.address, chainKeys().network)) throw new AppError('INVALID_ADDRESS');
  const address = normalizeAddress(given.coin, given.address);
  // The chain watcher's spelling of the id (DECISIONS §17), so that both name one output the same way.
  const input = { ...given, txid: canonicalTxid(given.coin, given.txid) };
  const tag = input.destinationTag ?? null;
  if (tag !== null && input.coin !== 'XRP') {
    throw new AppError('VALIDATION_FAILED', { fields: { destinationTag: 'INVALID_FORMAT' } });
  }
  const byTag = input.coin === 'XRP' && address === xrpDepositAccount();
  if (byTag && tag === null) {
    throw new AppError('VALIDATION_FAILED', { fields: { destinationTag: 'REQUIRED' } });
  }
  return inTx(db, async (tx) => {
    const w =
      byTag && tag !== null
        ? await walletByDestinationTag(tx, tag)
        : await walletByAddress(tx, input.coin, address);
    if (!w) throw new AppError('WALLET_NOT_FOUND');
    const inserted = await insertDepositTransfer(tx, w, input, fromUnits(units), shownAddress(w));
    if (!inserted) {
      const existing = await depositTransferOf(tx, input);
      if (existing.wallet_id !== w.id || toUnits(qty(existing.amount)) !== units) {
        throw new AppError('DUPLICATE_ENTRY');
      }
      // The chain watcher found this output first and settles it itself (confirming, dropped, under the minimum).
      if (existing.status !== 'COMPLETED') throw new AppError('INVALID_STATE', { status: existing.status });
      return { transfer: existing, created: false };
    }
    const { coin, txid, index } = input;
    await post(tx, movements.depositCredit({ coin, txid, index, memberId: w.member_id, units }));
    return { transfer: inserted, created: true };
  });
}
