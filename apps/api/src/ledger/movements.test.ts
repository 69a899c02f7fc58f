import { COINS, type Coin } from '@p2p/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accountKey } from './accounts.ts';
import { entryRef, type ListingRelease } from './entries.ts';
import { assertBalanced, type EntryInput, type PostingInput } from './ledger.ts';
import { type Movement, movements } from './movements.ts';

/** Every movement's postings, checked without a database (DECISIONS §4). */

const id = fc.integer({ min: 1, max: 2 ** 31 - 1 });
const coin = fc.constantFrom(...COINS);
const units = fc.bigInt({ min: 1n, max: 21n * 10n ** 14n });
const txid = fc.stringMatching(/^[0-9a-zA-Z:]{1,80}$/);

/** Units and a trade fee below them, as tradeFee makes (at most 10%) and beyond (up to units - 1). */
const unitsAndFee = units.chain((u) =>
  fc.record({ units: fc.constant(u), fee: fc.bigInt({ min: 0n, max: u - 1n }) }),
);

/** Why a listing's escrow goes back. */
const why = fc.constantFrom<ListingRelease>('reject', 'close');

/** Two different member ids. */
const twoMembers = fc
  .tuple(id, id)
  .filter(([a, b]) => a !== b)
  .map(([a, b]) => ({ a, b }));

/** An arbitrary valid input of every builder, each arbitrary producing the built movement. */
const anyMovement: Record<keyof typeof movements, fc.Arbitrary<Movement>> = {
  depositCredit: fc
    .record({ coin, txid, index: fc.nat(), memberId: id, units })
    .map((p) => movements.depositCredit(p)),
  escrowHold: fc.record({ listingId: id, sellerId: id, coin, units }).map((p) => movements.escrowHold(p)),
  listingEscrowRelease: fc
    .record({ listingId: id, why: why, sellerId: id, coin, units })
    .map((p) => movements.listingEscrowRelease(p)),
  listingEscrowAdjust: fc
    .record({ listingId: id, edit: id, sellerId: id, coin, units, more: fc.boolean() })
    .map(({ more, units: u, ...p }) => movements.listingEscrowAdjust({ ...p, units: more ? u : -u })),
  orderEscrowRelease: fc
    .record({ orderId: id, sellerId: id, coin, units })
    .map((p) => movements.orderEscrowRelease(p)),
  tradeDelivery: fc
    .record({ orderId: id, sellerId: id, buyerId: id, coin, uf: unitsAndFee, internal: fc.boolean() })
    .map(({ uf, ...p }) => movements.tradeDelivery({ ...p, ...uf })),
  internalTransfer: fc
    .record({ transferId: id, m: twoMembers, coin, units })
    .map(({ m, ...p }) => movements.internalTransfer({ ...p, fromMemberId: m.a, toMemberId: m.b })),
  withdrawalRequest: fc
    .record({ transferId: id, memberId: id, coin, units, fee: fc.bigInt({ min: 0n, max: 10n ** 9n }) })
    .map((p) => movements.withdrawalRequest(p)),
  withdrawalComplete: fc.record({ transferId: id, coin, units }).map((p) => movements.withdrawalComplete(p)),
  withdrawalReject: fc
    .record({ transferId: id, refundMemberId: id, coin, units, fee: fc.bigInt({ min: 0n, max: 10n ** 9n }) })
    .map((p) => movements.withdrawalReject(p)),
  withdrawalNetworkFee: fc
    .record({ transferId: id, coin, units })
    .map((p) => movements.withdrawalNetworkFee(p)),
  sweepNetworkFee: fc.record({ sweepId: id, coin, units }).map((p) => movements.sweepNetworkFee(p)),
  failedAttemptNetworkFee: fc
    .record({ attemptId: id, coin, units })
    .map((p) => movements.failedAttemptNetworkFee(p)),
  coldSweepNetworkFee: fc
    .record({ coldSweepId: id, coin, units })
    .map((p) => movements.coldSweepNetworkFee(p)),
};

/** The net change per account of a list of postings, zeros dropped. */
function net(postings: PostingInput[]): Map<string, bigint> {
  const m = new Map<string, bigint>();
  for (const p of postings) m.set(accountKey(p.account), (m.get(accountKey(p.account)) ?? 0n) + p.amount);
  for (const [k, v] of m) if (v === 0n) m.delete(k);
  return m;
}

const amountOf = (m: Movement, key: string) =>
  m.postings.filter((p) => accountKey(p.account) === key).reduce((s, p) => s + p.amount, 0n);

describe('ledger movements', () => {
  it('has one builder per entry of the catalogue', () => {
    expect(Object.keys(movements).sort()).toEqual(Object.keys(entryRef).sort());
  });

  for (const [name, arb] of Object.entries(anyMovement)) {
    it(`${name}: balances per coin, moves something, in one coin, with no zero posting`, () => {
      fc.assert(
        fc.property(arb, (m) => {
          expect(() => assertBalanced(m.postings)).not.toThrow();
          expect(m.postings.every((p) => p.amount !== 0n)).toBe(true);
          expect(net(m.postings).size).toBeGreaterThanOrEqual(2);
          expect(new Set(m.postings.map((p) => p.account.coin)).size).toBe(1);
        }),
      );
    });
  }

  it('keeps every ref format of the catalogue, deterministically', () => {
    fc.assert(
      fc.property(id, id, id, coin, units, unitsAndFee, fc.boolean(), (a, b, c, k, u, uf, internal) => {
        const trade = { orderId: a, sellerId: b, buyerId: c, coin: k, ...uf, internal };
        expect(movements.tradeDelivery(trade)).toEqual(movements.tradeDelivery({ ...trade }));
        expect(movements.tradeDelivery(trade).ref).toBe(`order:${a}:complete`);
        expect(movements.tradeDelivery(trade).kind).toBe(internal ? 'trade' : 'trade_withdrawal');
        const hold = movements.escrowHold({ listingId: a, sellerId: b, coin: k, units: u });
        expect(hold).toEqual(movements.escrowHold({ listingId: a, sellerId: b, coin: k, units: u }));
        expect(hold.ref).toBe(`listing:${a}:escrow`);
        const release = { listingId: a, sellerId: b, coin: k, units: u };
        expect(movements.listingEscrowRelease({ ...release, why: 'reject' }).ref).toBe(`listing:${a}:reject`);
        expect(movements.listingEscrowRelease({ ...release, why: 'close' }).ref).toBe(`listing:${a}:close`);
        expect(movements.orderEscrowRelease({ orderId: a, sellerId: b, coin: k, units: u }).ref).toBe(
          `order:${a}:release`,
        );
        expect(
          movements.internalTransfer({ transferId: a, fromMemberId: b, toMemberId: b + 1, coin: k, units: u })
            .ref,
        ).toBe(`transfer:${a}`);
        const w = { transferId: a, coin: k, units: u };
        expect(movements.withdrawalRequest({ ...w, memberId: b, fee: 0n }).ref).toBe(`withdraw:${a}`);
        expect(movements.withdrawalComplete(w).ref).toBe(`withdraw:${a}:complete`);
        expect(movements.withdrawalReject({ ...w, refundMemberId: b, fee: 0n }).ref).toBe(
          `withdraw:${a}:reject`,
        );
      }),
    );
    fc.assert(
      fc.property(coin, txid, fc.nat(), id, units, (k, t, index, memberId, u) => {
        const m = movements.depositCredit({ coin: k, txid: t, index, memberId, units: u });
        expect(m).toEqual({ ...entryRef.depositCredit(k, t, index), postings: m.postings });
        expect(m.ref).toBe(`deposit:${k}:${t}:${index}`);
      }),
    );
  });

  it('every movement names the same entry as entryRef for the same ids', () => {
    // The refs of stored data: a builder may never make another ref than the catalogue's.
    const samples: Record<keyof typeof movements, [Movement, { ref: string }]> = {
      depositCredit: [
        movements.depositCredit({ coin: 'BTC', txid: 'ab:cd', index: 3, memberId: 1, units: 5n }),
        entryRef.depositCredit('BTC', 'ab:cd', 3),
      ],
      escrowHold: [
        movements.escrowHold({ listingId: 7, sellerId: 1, coin: 'ETH', units: 5n }),
        entryRef.escrowHold(7),
      ],
      listingEscrowRelease: [
        movements.listingEscrowRelease({ listingId: 7, why: 'close', sellerId: 1, coin: 'ETH', units: 5n }),
        entryRef.listingEscrowRelease(7, 'close'),
      ],
      listingEscrowAdjust: [
        movements.listingEscrowAdjust({ listingId: 7, edit: 2, sellerId: 1, coin: 'ETH', units: -5n }),
        entryRef.listingEscrowAdjust(7, 2),
      ],
      orderEscrowRelease: [
        movements.orderEscrowRelease({ orderId: 9, sellerId: 1, coin: 'XRP', units: 5n }),
        entryRef.orderEscrowRelease(9),
      ],
      tradeDelivery: [
        movements.tradeDelivery({
          orderId: 9,
          sellerId: 1,
          buyerId: 2,
          coin: 'TRX',
          units: 5n,
          fee: 1n,
          internal: false,
        }),
        entryRef.tradeDelivery(9, false),
      ],
      internalTransfer: [
        movements.internalTransfer({
          transferId: 11,
          fromMemberId: 1,
          toMemberId: 2,
          coin: 'BTC',
          units: 5n,
        }),
        entryRef.internalTransfer(11),
      ],
      withdrawalRequest: [
        movements.withdrawalRequest({ transferId: 12, memberId: 1, coin: 'BTC', units: 5n, fee: 1n }),
        entryRef.withdrawalRequest(12),
      ],
      withdrawalComplete: [
        movements.withdrawalComplete({ transferId: 12, coin: 'BTC', units: 5n }),
        entryRef.withdrawalComplete(12),
      ],
      withdrawalReject: [
        movements.withdrawalReject({ transferId: 12, refundMemberId: 1, coin: 'BTC', units: 5n, fee: 1n }),
        entryRef.withdrawalReject(12),
      ],
      withdrawalNetworkFee: [
        movements.withdrawalNetworkFee({ transferId: 12, coin: 'ETH', units: 5n }),
        entryRef.withdrawalNetworkFee(12),
      ],
      sweepNetworkFee: [
        movements.sweepNetworkFee({ sweepId: 4, coin: 'ETH', units: 5n }),
        entryRef.sweepNetworkFee('ETH', 4),
      ],
      failedAttemptNetworkFee: [
        movements.failedAttemptNetworkFee({ attemptId: 5, coin: 'XRP', units: 12n }),
        entryRef.failedAttemptNetworkFee('XRP', 5),
      ],
      coldSweepNetworkFee: [
        movements.coldSweepNetworkFee({ coldSweepId: 6, coin: 'BTC', units: 3n }),
        entryRef.coldSweepNetworkFee('BTC', 6),
      ],
    };
    for (const [name, [m, e]] of Object.entries(samples))
      expect({ ref: m.ref, kind: m.kind }, name).toEqual(e);
  });

  it('a trade fee never exceeds its units: the buyer gets units - fee, fees get the fee, escrow gives units', () => {
    fc.assert(
      fc.property(id, twoMembers, coin, unitsAndFee, fc.boolean(), (orderId, m, k, uf, internal) => {
        const t = movements.tradeDelivery({ orderId, sellerId: m.a, buyerId: m.b, coin: k, ...uf, internal });
        const to = internal ? `${m.b}:${k}:available` : `platform:${k}:withdrawal_pending`;
        const fee = amountOf(t, `platform:${k}:fees`);
        expect(fee).toBe(uf.fee);
        expect(fee).toBeGreaterThanOrEqual(0n);
        expect(fee).toBeLessThan(uf.units);
        expect(amountOf(t, to)).toBe(uf.units - uf.fee);
        expect(amountOf(t, `${m.a}:${k}:escrow`)).toBe(-uf.units);
      }),
    );
  });

  it('refuses a trade fee of its whole units or more, or below zero (RangeError)', () => {
    fc.assert(
      fc.property(units, fc.bigInt({ min: 0n, max: 10n ** 12n }), (u, extra) => {
        const trade = { orderId: 1, sellerId: 1, buyerId: 2, coin: 'BTC' as Coin, units: u, internal: true };
        expect(() => movements.tradeDelivery({ ...trade, fee: u + extra })).toThrow(RangeError);
        expect(() => movements.tradeDelivery({ ...trade, fee: -1n - extra })).toThrow(RangeError);
      }),
    );
  });

  it('a withdrawal fee is charged on top: the member pays units + fee, fees get exactly the fee', () => {
    fc.assert(
      fc.property(
        id,
        id,
        coin,
        units,
        fc.bigInt({ min: 0n, max: 10n ** 9n }),
        (transferId, memberId, k, u, fee) => {
          const w = movements.withdrawalRequest({ transferId, memberId, coin: k, units: u, fee });
          expect(amountOf(w, `${memberId}:${k}:available`)).toBe(-(u + fee));
          expect(amountOf(w, `platform:${k}:withdrawal_pending`)).toBe(u);
          expect(amountOf(w, `platform:${k}:fees`)).toBe(fee);
        },
      ),
    );
  });

  it('a listing release of what was held mirrors its hold', () => {
    fc.assert(
      fc.property(id, id, coin, units, why, (listingId, sellerId, k, u, why) => {
        const hold = movements.escrowHold({ listingId, sellerId, coin: k, units: u });
        const back = movements.listingEscrowRelease({ listingId, why, sellerId, coin: k, units: u });
        expect(net([...hold.postings, ...back.postings]).size).toBe(0);
        expect(back.ref).not.toBe(hold.ref);
      }),
    );
  });

  it("a hold split into orders' releases and the listing's release comes back whole", () => {
    fc.assert(
      fc.property(
        id,
        id,
        coin,
        fc.array(units, { minLength: 1, maxLength: 6 }),
        units,
        (listingId, sellerId, k, parts, rest) => {
          const held = parts.reduce((s, p) => s + p, rest);
          const all = [
            movements.escrowHold({ listingId, sellerId, coin: k, units: held }),
            ...parts.map((p, i) =>
              movements.orderEscrowRelease({ orderId: i + 1, sellerId, coin: k, units: p }),
            ),
            movements.listingEscrowRelease({ listingId, why: 'close', sellerId, coin: k, units: rest }),
          ];
          expect(net(all.flatMap((m) => m.postings)).size).toBe(0);
          expect(new Set(all.map((m) => m.ref)).size).toBe(all.length);
        },
      ),
    );
  });

  it("a rejected withdrawal mirrors its request, the member's fee included", () => {
    fc.assert(
      fc.property(
        id,
        id,
        coin,
        units,
        fc.bigInt({ min: 0n, max: 10n ** 9n }),
        (transferId, memberId, k, u, fee) => {
          const req = movements.withdrawalRequest({ transferId, memberId, coin: k, units: u, fee });
          const rej = movements.withdrawalReject({
            transferId,
            refundMemberId: memberId,
            coin: k,
            units: u,
            fee,
          });
          expect(net([...req.postings, ...rej.postings]).size).toBe(0);
        },
      ),
    );
  });

  it('a rejected EXTERNAL delivery refunds the buyer and keeps the trade fee: it ends as an INTERNAL one', () => {
    fc.assert(
      fc.property(id, id, twoMembers, coin, unitsAndFee, (orderId, transferId, m, k, uf) => {
        const trade = { orderId, sellerId: m.a, buyerId: m.b, coin: k, ...uf };
        const external = movements.tradeDelivery({ ...trade, internal: false });
        const units = uf.units - uf.fee;
        const rej = movements.withdrawalReject({ transferId, refundMemberId: m.b, coin: k, units, fee: 0n });
        const internal = movements.tradeDelivery({ ...trade, internal: true });
        expect(net([...external.postings, ...rej.postings])).toEqual(net(internal.postings));
      }),
    );
  });

  it('a sent withdrawal leaves the platform: pending -> chain, nothing else', () => {
    fc.assert(
      fc.property(id, coin, units, (transferId, k, u) => {
        const m = movements.withdrawalComplete({ transferId, coin: k, units: u });
        expect(net(m.postings)).toEqual(
          new Map([
            [`platform:${k}:withdrawal_pending`, -u],
            [`platform:${k}:chain`, u],
          ]),
        );
      }),
    );
  });

  it('a network fee leaves the platform from its own share: chain up, network-fee down, members untouched', () => {
    fc.assert(
      fc.property(id, coin, units, (a, k, u) => {
        const w = movements.withdrawalNetworkFee({ transferId: a, coin: k, units: u });
        const s = movements.sweepNetworkFee({ sweepId: a, coin: k, units: u });
        const f = movements.failedAttemptNetworkFee({ attemptId: a, coin: k, units: u });
        const expected = new Map([
          [`platform:${k}:network_fee`, -u],
          [`platform:${k}:chain`, u],
        ]);
        expect(net(w.postings)).toEqual(expected);
        expect(net(s.postings)).toEqual(expected);
        expect(net(f.postings)).toEqual(expected);
        expect(w.ref).toBe(`withdraw:${a}:network-fee`);
        expect(s.ref).toBe(`sweep:${k}:${a}:network-fee`);
        expect(w.kind).toBe('network_fee');
        expect(s.kind).toBe('network_fee');
      }),
    );
  });

  it('a paid withdrawal with its fee moves exactly units + fee out of what the platform holds on chain', () => {
    fc.assert(
      fc.property(
        id,
        id,
        coin,
        units,
        units,
        fc.bigInt({ min: 0n, max: 10n ** 9n }),
        (t, m, k, u, nf, fee) => {
          const all = [
            movements.withdrawalRequest({ transferId: t, memberId: m, coin: k, units: u, fee }),
            movements.withdrawalComplete({ transferId: t, coin: k, units: u }),
            movements.withdrawalNetworkFee({ transferId: t, coin: k, units: nf }),
          ].flatMap((x) => x.postings);
          const n = net(all);
          expect(n.get(`platform:${k}:chain`)).toBe(u + nf);
          expect(n.get(`${m}:${k}:available`)).toBe(-(u + fee));
          expect(n.get(`platform:${k}:withdrawal_pending`)).toBeUndefined();
        },
      ),
    );
  });

  it('refuses what cannot be a movement with a RangeError', () => {
    const bad: [string, () => Movement][] = [
      ['zero units', () => movements.escrowHold({ listingId: 1, sellerId: 1, coin: 'BTC', units: 0n })],
      [
        'negative units',
        () => movements.orderEscrowRelease({ orderId: 1, sellerId: 1, coin: 'BTC', units: -1n }),
      ],
      [
        'zero release',
        () =>
          movements.listingEscrowRelease({ listingId: 1, why: 'close', sellerId: 1, coin: 'BTC', units: 0n }),
      ],
      ['id 0', () => movements.escrowHold({ listingId: 0, sellerId: 1, coin: 'BTC', units: 1n })],
      ['fractional id', () => movements.withdrawalComplete({ transferId: 1.5, coin: 'BTC', units: 1n })],
      ['unsafe id', () => movements.withdrawalComplete({ transferId: 2 ** 53, coin: 'BTC', units: 1n })],
      [
        'NaN member',
        () => movements.depositCredit({ coin: 'BTC', txid: 'a', index: 0, memberId: Number.NaN, units: 1n }),
      ],
      [
        'empty txid',
        () => movements.depositCredit({ coin: 'BTC', txid: '', index: 0, memberId: 1, units: 1n }),
      ],
      [
        'negative index',
        () => movements.depositCredit({ coin: 'BTC', txid: 'a', index: -1, memberId: 1, units: 1n }),
      ],
      [
        'to oneself',
        () =>
          movements.internalTransfer({
            transferId: 1,
            fromMemberId: 3,
            toMemberId: 3,
            coin: 'BTC',
            units: 1n,
          }),
      ],
      [
        'negative withdrawal fee',
        () => movements.withdrawalRequest({ transferId: 1, memberId: 1, coin: 'BTC', units: 1n, fee: -1n }),
      ],
      [
        'negative refund fee',
        () =>
          movements.withdrawalReject({ transferId: 1, refundMemberId: 1, coin: 'BTC', units: 1n, fee: -1n }),
      ],
      ['zero network fee', () => movements.withdrawalNetworkFee({ transferId: 1, coin: 'ETH', units: 0n })],
      ['sweep id 0', () => movements.sweepNetworkFee({ sweepId: 0, coin: 'ETH', units: 1n })],
      ['attempt id 0', () => movements.failedAttemptNetworkFee({ attemptId: 0, coin: 'XRP', units: 1n })],
      ['cold sweep units 0', () => movements.coldSweepNetworkFee({ coldSweepId: 1, coin: 'BTC', units: 0n })],
    ];
    for (const [what, build] of bad) expect(build, what).toThrow(RangeError);
  });

  it('gives post() a closed set of kinds', () => {
    const entry = (kind: EntryInput['kind']): EntryInput => ({ ref: 'r', kind, postings: [] });
    expect(entry('deposit').kind).toBe('deposit');
    // @ts-expect-error: a kind outside the catalogue does not type-check (npm run typecheck fails if it does)
    expect(entry('test').kind).toBe('test');
  });

  it('a listing edit moves exactly the signed change between available and escrow, nothing else', () => {
    fc.assert(
      fc.property(id, id, id, coin, units, fc.boolean(), (listingId, edit, sellerId, k, u, more) => {
        const change = more ? u : -u;
        const m = movements.listingEscrowAdjust({ listingId, edit, sellerId, coin: k, units: change });
        expect(m.ref).toBe(`listing:${listingId}:edit:${edit}`);
        expect(m.kind).toBe('escrow_adjust');
        expect(net(m.postings)).toEqual(
          new Map([
            [`${sellerId}:${k}:available`, -change],
            [`${sellerId}:${k}:escrow`, change],
          ]),
        );
      }),
    );
    expect(() =>
      movements.listingEscrowAdjust({ listingId: 1, edit: 1, sellerId: 1, coin: 'BTC', units: 0n }),
    ).toThrow(RangeError);
    expect(() =>
      movements.listingEscrowAdjust({ listingId: 1, edit: 0, sellerId: 1, coin: 'BTC', units: 1n }),
    ).toThrow(RangeError);
  });
});
