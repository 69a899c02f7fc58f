import { describe, expect, it } from 'vitest';
import {
  AVAILABILITY_MOVES,
  allowedActions,
  LISTING_STATUSES,
  LISTING_TRANSITIONS,
  listingActionsFor,
  nextListingStatus,
  ORDER_STATUSES,
  ORDER_TRANSITIONS,
  orderActionsFor,
} from './enums.ts';

describe('allowedActions: buttons from the transition tables (DESIGN habit 6)', () => {
  it('answers an order party exactly what the table lets it do', () => {
    expect(orderActionsFor('REQUESTED', 'buyer')).toEqual(['paid', 'cancel']);
    expect(orderActionsFor('PAID', 'seller')).toEqual(['complete', 'dispute']);
    expect(orderActionsFor('DISPUTED', 'buyer')).toEqual([]);
    expect(orderActionsFor('DISPUTED', 'operator')).toEqual(['cancel', 'complete']);
    for (const end of ['COMPLETED', 'CANCELED', 'REJECTED', 'EXPIRED'] as const) {
      for (const by of ['buyer', 'seller', 'operator', 'system'] as const) {
        expect(orderActionsFor(end, by)).toEqual([]);
      }
    }
  });

  it('answers a listing seller and operator exactly what the table lets them do', () => {
    expect(listingActionsFor('PENDING_REVIEW', 'seller')).toEqual(['close']);
    expect(listingActionsFor('OPEN', 'seller')).toEqual(['close', 'pause']);
    expect(listingActionsFor('PAUSED', 'seller')).toEqual(['close', 'resume']);
    expect(listingActionsFor('PENDING_REVIEW', 'operator')).toEqual(['approve', 'reject']);
    expect(listingActionsFor('OPEN', 'operator')).toEqual([]);
    for (const end of ['CLOSED', 'REJECTED'] as const) {
      expect(listingActionsFor(end, 'seller')).toEqual([]);
      expect(listingActionsFor(end, 'operator')).toEqual([]);
    }
  });

  it('agrees with the tables and the next-status functions for every status, action and role', () => {
    for (const status of LISTING_STATUSES) {
      for (const t of LISTING_TRANSITIONS) {
        const listed = listingActionsFor(status, t.by).includes(t.action);
        expect(listed).toBe(
          LISTING_TRANSITIONS.some((x) => x.by === t.by && x.action === t.action && x.from.includes(status)),
        );
        if (t.from.includes(status)) expect(nextListingStatus(status, t.action)).toBe(t.to);
      }
    }
    for (const status of ORDER_STATUSES) {
      for (const t of ORDER_TRANSITIONS) {
        expect(orderActionsFor(status, t.by).includes(t.action)).toBe(
          ORDER_TRANSITIONS.some((x) => x.by === t.by && x.action === t.action && x.from.includes(status)),
        );
      }
    }
  });

  it('lists each action once, in the table order', () => {
    const table = [
      { action: 'b', by: 'r', from: ['S'] },
      { action: 'a', by: 'r', from: ['S'] },
      { action: 'b', by: 'r', from: ['S', 'T'] },
    ] as const;
    expect(allowedActions(table, 'S', 'r')).toEqual(['b', 'a']);
    expect(allowedActions(table, 'T', 'r')).toEqual(['b']);
  });
});

describe('the seller availability moves (DECISIONS §4, §12)', () => {
  it('pause takes OPEN to PAUSED and resume the way back, nothing else', () => {
    expect(AVAILABILITY_MOVES.map((m) => nextListingStatus(m === 'pause' ? 'OPEN' : 'PAUSED', m))).toEqual([
      'PAUSED',
      'OPEN',
    ]);
    for (const from of LISTING_STATUSES) {
      if (from !== 'OPEN') expect(nextListingStatus(from, 'pause')).toBeNull();
      if (from !== 'PAUSED') expect(nextListingStatus(from, 'resume')).toBeNull();
    }
  });
});
