import { type Coin, receiveQty } from '@p2p/contract';
import {
  createMember,
  createWalletFor,
  type FixtureMember,
  fundMember,
  markPhoneVerified,
} from '../../../test/fixtures.ts';
import type { TestApp } from '../../../test/helpers.ts';
import { account, balanceOf } from '../../ledger/index.ts';
import { ensureBankVerified } from '../bank/test-kit.ts';

/** Test helpers of the market module (not a test file): wallets, funded sellers, open listings. */

/** The member's wallet of `coin`, created through the wallets module (a real derived deposit address). */
export async function walletFor(
  t: TestApp,
  memberId: number,
  coin: Coin,
): Promise<{ id: number; address: string }> {
  const w = await createWalletFor(t, memberId, coin);
  return { id: w.id, address: w.address };
}

export interface Trader extends FixtureMember {
  wallet: { id: number; address: string };
}

/** A member with a wallet of `coin`, funded with `fund` (decimal string) when given. */
export async function trader(t: TestApp, coin: Coin, fund?: string, name?: string): Promise<Trader> {
  const m = await createMember(t, name ? { name } : {});
  const wallet = await walletFor(t, m.id, coin);
  if (fund) await fundMember(t, m.id, coin, fund);
  return { ...m, wallet };
}

export function operator(t: TestApp): Promise<FixtureMember> {
  return createMember(t, { role: 'OPERATOR' });
}

export interface ListingTerms {
  minQty: string;
  maxQty: string;
  unitPriceKrw: number;
}

/** The bank account the kit's sellers list with. */
const KIT_ACCOUNT = { bankName: 'KB국민은행', accountNo: '123456789012' };

/**
 * Creates a listing through HTTP with the seller's password as the step-up (DECISIONS §13) and returns its
 * id; throws with the answer when refused.
 */
export async function listVia(t: TestApp, seller: Trader, terms: ListingTerms): Promise<number> {
  // DECISIONS §19: the listing pays into the seller's 1원-verified account.
  if (t.config.trust.bank.required) await ensureBankVerified(t, seller, KIT_ACCOUNT);
  const r = await t.call<{ listingId: number }>('POST', '/api/v1/sell-listings', {
    token: seller.token,
    body: {
      walletId: seller.wallet.id,
      ...terms,
      ...KIT_ACCOUNT,
      stepUp: { password: seller.password },
    },
  });
  if (r.status !== 200) throw new Error(`listing refused: ${JSON.stringify(r.body)}`);
  return r.body.returnData.listingId;
}

/** Creates and approves a listing (HTTP, operator route). */
export async function openListing(t: TestApp, seller: Trader, op: FixtureMember, terms: ListingTerms) {
  const id = await listVia(t, seller, terms);
  const r = await t.call('POST', `/ops/api/v1/listings/${id}/approve`, { token: op.token });
  if (r.status !== 200) throw new Error(`approve refused: ${JSON.stringify(r.body)}`);
  return id;
}

/** A buyer whose phone was just verified for the purchase, with a wallet of `coin`. */
export async function verifiedBuyer(t: TestApp, coin: Coin): Promise<Trader> {
  const b = await trader(t, coin);
  await markPhoneVerified(t, b.phoneE164, 'member', b.id);
  return b;
}

/** A well-formed INTERNAL instant purchase body for `krw` won at `price`. */
export function buyBody(listingId: number, krw: number, price: number, destWalletId: number) {
  return {
    listingId,
    krwAmount: krw,
    requestQty: receiveQty(krw, price),
    destType: 'INTERNAL',
    destWalletId,
  };
}

export const available = (t: TestApp, memberId: number, coin: Coin) =>
  balanceOf(t.app.deps.db, account.available(memberId, coin));
export const escrow = (t: TestApp, memberId: number, coin: Coin) =>
  balanceOf(t.app.deps.db, account.escrow(memberId, coin));

/** Won per BTC in the market scenarios: 1,000,000 won buys 0.02 BTC. */
export const BTC_PRICE = 50_000_000;

/** The seller's view of a listing (GET /my/sell/{id}) as the scenarios read it. */
export interface MyListing {
  listingId: number;
  remainingQty: string;
  status: string;
  sellerName: string;
}

export async function myListing(t: TestApp, id: number, token: string): Promise<MyListing> {
  return (await t.call<MyListing>('GET', `/my/sell/${id}`, { token })).body.returnData;
}

/** A seller with 1 BTC listed (minQty..maxQty at BTC_PRICE) and approved, plus a verified buyer. */
export async function btcMarket(t: TestApp, op: FixtureMember, minQty = '0.01', maxQty = '1') {
  const seller = await trader(t, 'BTC', '1', 'Park Younghee');
  const id = await openListing(t, seller, op, { minQty, maxQty, unitPriceKrw: BTC_PRICE });
  const buyer = await verifiedBuyer(t, 'BTC');
  return { seller, buyer, id };
}

/**
 * A fresh purchase phone check for `buyer` (DECISIONS §11: each check allows exactly one order), as a
 * successful POST /sms/verify of their own phone would leave it.
 */
export async function reverify(t: TestApp, buyer: FixtureMember): Promise<void> {
  await markPhoneVerified(t, buyer.phoneE164, 'member', buyer.id);
}

/** POST /buy-orders as `buyer` after a fresh purchase check; answers what the call answered. */
export async function placeOrder<T = Record<string, unknown> & { orderId: number; status: string }>(
  t: TestApp,
  buyer: FixtureMember,
  body: unknown,
) {
  await reverify(t, buyer);
  return t.call<T>('POST', '/buy-orders', { token: buyer.token, body });
}
