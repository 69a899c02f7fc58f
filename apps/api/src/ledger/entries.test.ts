import { COINS } from '@p2p/contract';
import { describe, expect, it } from 'vitest';
import { type EntryName, type EntryRef, entryRef, parseEntryRef } from './entries.ts';

/** One sample of every builder, with the ref it must keep making (stored refs never change format). */
const samples: Record<EntryName, { made: EntryRef; ref: string }> = {
  depositCredit: { made: entryRef.depositCredit('BTC', 'ab:cd', 3), ref: 'deposit:BTC:ab:cd:3' },
  escrowHold: { made: entryRef.escrowHold(7), ref: 'listing:7:escrow' },
  listingEscrowRelease: { made: entryRef.listingEscrowRelease(7, 'close'), ref: 'listing:7:close' },
  listingEscrowAdjust: { made: entryRef.listingEscrowAdjust(7, 2), ref: 'listing:7:edit:2' },
  orderEscrowRelease: { made: entryRef.orderEscrowRelease(9), ref: 'order:9:release' },
  tradeDelivery: { made: entryRef.tradeDelivery(9, true), ref: 'order:9:complete' },
  internalTransfer: { made: entryRef.internalTransfer(11), ref: 'transfer:11' },
  withdrawalRequest: { made: entryRef.withdrawalRequest(12), ref: 'withdraw:12' },
  withdrawalComplete: { made: entryRef.withdrawalComplete(12), ref: 'withdraw:12:complete' },
  withdrawalReject: { made: entryRef.withdrawalReject(12), ref: 'withdraw:12:reject' },
  withdrawalNetworkFee: { made: entryRef.withdrawalNetworkFee(12), ref: 'withdraw:12:network-fee' },
  sweepNetworkFee: { made: entryRef.sweepNetworkFee('ETH', 4), ref: 'sweep:ETH:4:network-fee' },
  failedAttemptNetworkFee: {
    made: entryRef.failedAttemptNetworkFee('XRP', 5),
    ref: 'attempt:XRP:5:network-fee',
  },
  coldSweepNetworkFee: { made: entryRef.coldSweepNetworkFee('BTC', 6), ref: 'cold:BTC:6:network-fee' },
};

describe('ledger entry catalogue', () => {
  it('keeps every ref format stable', () => {
    for (const [name, s] of Object.entries(samples)) expect(s.made.ref, name).toBe(s.ref);
    expect(entryRef.listingEscrowRelease(7, 'reject')).toEqual({
      ref: 'listing:7:reject',
      kind: 'escrow_release',
    });
    expect(entryRef.tradeDelivery(9, false)).toEqual({ ref: 'order:9:complete', kind: 'trade_withdrawal' });
  });

  it('has a sample for every builder', () => {
    expect(Object.keys(samples).sort()).toEqual(Object.keys(entryRef).sort());
  });

  it('never gives two movements the same ref, across kinds and ids', () => {
    const seen = new Map<string, string>();
    const add = (what: string, e: EntryRef) => {
      expect(seen.get(e.ref), `${what} collides with ${seen.get(e.ref)}`).toBeUndefined();
      seen.set(e.ref, what);
    };
    for (const id of [1, 2, 10, 12, 123]) {
      add(`escrowHold ${id}`, entryRef.escrowHold(id));
      add(`listing reject ${id}`, entryRef.listingEscrowRelease(id, 'reject'));
      add(`listing close ${id}`, entryRef.listingEscrowRelease(id, 'close'));
      add(`listingEscrowAdjust ${id}`, entryRef.listingEscrowAdjust(id, id));
      add(`orderEscrowRelease ${id}`, entryRef.orderEscrowRelease(id));
      // INTERNAL and EXTERNAL share the ref on purpose: an order is delivered once, either way
      add(`tradeDelivery ${id}`, entryRef.tradeDelivery(id, true));
      add(`internalTransfer ${id}`, entryRef.internalTransfer(id));
      add(`withdrawalRequest ${id}`, entryRef.withdrawalRequest(id));
      add(`withdrawalComplete ${id}`, entryRef.withdrawalComplete(id));
      add(`withdrawalReject ${id}`, entryRef.withdrawalReject(id));
      add(`withdrawalNetworkFee ${id}`, entryRef.withdrawalNetworkFee(id));
      for (const coin of COINS) add(`sweepNetworkFee ${coin} ${id}`, entryRef.sweepNetworkFee(coin, id));
      for (const coin of COINS)
        add(`failedAttemptNetworkFee ${coin} ${id}`, entryRef.failedAttemptNetworkFee(coin, id));
      for (const coin of COINS)
        add(`coldSweepNetworkFee ${coin} ${id}`, entryRef.coldSweepNetworkFee(coin, id));
      for (const coin of COINS) add(`deposit ${coin} ${id}`, entryRef.depositCredit(coin, `tx${id}`, id));
    }
  });

  it('parses every ref back into the builder and arguments that made it', () => {
    expect(parseEntryRef(samples.depositCredit.ref)).toEqual({
      name: 'depositCredit',
      coin: 'BTC',
      txid: 'ab:cd',
      index: 3,
    });
    expect(parseEntryRef('listing:7:escrow')).toEqual({ name: 'escrowHold', listingId: 7 });
    expect(parseEntryRef('listing:7:edit:2')).toEqual({ name: 'listingEscrowAdjust', listingId: 7, edit: 2 });
    expect(parseEntryRef('listing:7:reject')).toEqual({
      name: 'listingEscrowRelease',
      listingId: 7,
      why: 'reject',
    });
    expect(parseEntryRef('listing:7:close')).toEqual({
      name: 'listingEscrowRelease',
      listingId: 7,
      why: 'close',
    });
    expect(parseEntryRef('order:9:release')).toEqual({ name: 'orderEscrowRelease', orderId: 9 });
    expect(parseEntryRef('order:9:complete')).toEqual({ name: 'tradeDelivery', orderId: 9 });
    expect(parseEntryRef('transfer:11')).toEqual({ name: 'internalTransfer', transferId: 11 });
    expect(parseEntryRef('withdraw:12')).toEqual({ name: 'withdrawalRequest', transferId: 12 });
    expect(parseEntryRef('withdraw:12:complete')).toEqual({ name: 'withdrawalComplete', transferId: 12 });
    expect(parseEntryRef('withdraw:12:reject')).toEqual({ name: 'withdrawalReject', transferId: 12 });
    for (const [name, s] of Object.entries(samples)) expect(parseEntryRef(s.ref)?.name, name).toBe(name);
  });

  it('round-trips: building from a parsed ref gives the same ref', () => {
    const rebuild = (ref: string): string | undefined => {
      const p = parseEntryRef(ref);
      if (!p) return undefined;
      switch (p.name) {
        case 'depositCredit':
          return entryRef.depositCredit(p.coin, p.txid, p.index).ref;
        case 'escrowHold':
          return entryRef.escrowHold(p.listingId).ref;
        case 'listingEscrowRelease':
          return entryRef.listingEscrowRelease(p.listingId, p.why).ref;
        case 'listingEscrowAdjust':
          return entryRef.listingEscrowAdjust(p.listingId, p.edit).ref;
        case 'orderEscrowRelease':
          return entryRef.orderEscrowRelease(p.orderId).ref;
        case 'tradeDelivery':
          return entryRef.tradeDelivery(p.orderId, true).ref;
        case 'internalTransfer':
          return entryRef.internalTransfer(p.transferId).ref;
        case 'withdrawalRequest':
          return entryRef.withdrawalRequest(p.transferId).ref;
        case 'withdrawalComplete':
          return entryRef.withdrawalComplete(p.transferId).ref;
        case 'withdrawalReject':
          return entryRef.withdrawalReject(p.transferId).ref;
        case 'withdrawalNetworkFee':
          return entryRef.withdrawalNetworkFee(p.transferId).ref;
        case 'sweepNetworkFee':
          return entryRef.sweepNetworkFee(p.coin, p.sweepId).ref;
        case 'failedAttemptNetworkFee':
          return entryRef.failedAttemptNetworkFee(p.coin, p.attemptId).ref;
        case 'coldSweepNetworkFee':
          return entryRef.coldSweepNetworkFee(p.coin, p.coldSweepId).ref;
      }
    };
    for (const s of Object.values(samples)) expect(rebuild(s.ref)).toBe(s.ref);
    for (const coin of COINS) {
      const ref = entryRef.depositCredit(coin, '0xdead:beef', 0).ref;
      expect(rebuild(ref)).toBe(ref);
    }
  });

  it('refuses refs of no known format', () => {
    for (const ref of [
      '',
      'listing:0:escrow',
      'listing:x:escrow',
      'order:9:paid',
      'transfer:',
      'withdraw:1:sent',
      'deposit:DOGE:t:1',
      'deposit:BTC:t:-1',
      'test:1',
    ]) {
      expect(parseEntryRef(ref), ref).toBeNull();
    }
  });
});
