import type { TradeListing } from '@p2p/contract';
import { describe, expect, it } from 'vitest';
import { walletIdOf } from '../wallet/wallet-state';
import { orderIdOf, purchaseStateOf, verifyStateOf } from './trade-state';

const listing: TradeListing = {
  listingId: 7,
  coinCode: 'BTC',
  minQty: '0.001',
  maxQty: '0.5',
  remainingQty: '0.5',
  unitPriceKrw: 100_000_000,
  status: 'OPEN',
  createdAt: '2026-11-22T00:00:00.000Z',
  sellerNickname: 'seller',
  sellerLoginId: 'seller01',
  sellerName: 'Kim',
  sellerCountry: '82',
  sellerStats: {
    completedTrades: 0,
    completionRatePct: null,
    medianReleaseSec: null,
    memberSince: '2026-11-01',
  },
};

describe('navigation state is parsed with the contract schemas, never cast', () => {
  it('accepts a listing card state and refuses a broken one', () => {
    expect(purchaseStateOf({ tradeData: listing, purchaseType: 'instant' })).toEqual({
      tradeData: listing,
      purchaseType: 'instant',
    });
    expect(
      purchaseStateOf({ tradeData: { ...listing, unitPriceKrw: 0 }, purchaseType: 'instant' }),
    ).toBeNull();
    expect(purchaseStateOf({ tradeData: listing, purchaseType: 'later' })).toBeNull();
    expect(purchaseStateOf({ tradeData: { listingId: '7' }, purchaseType: 'instant' })).toBeNull();
    expect(purchaseStateOf(null)).toBeNull();
    expect(verifyStateOf({ tradeData: listing, purchaseType: 'reserve' })).toBeNull();
  });

  it('reads the order and wallet ids the screens pass', () => {
    expect(orderIdOf({ orderId: 12 })).toBe(12);
    expect(orderIdOf({ orderId: -1 })).toBeNull();
    expect(orderIdOf(undefined)).toBeNull();
    expect(walletIdOf({ walletId: 3 })).toBe(3);
    expect(walletIdOf({ wallet: { id: 4 } })).toBe(4);
    expect(walletIdOf({ walletId: '3' })).toBeNull();
  });
});
