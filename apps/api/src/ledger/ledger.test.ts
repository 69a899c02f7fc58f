import { COINS, type Coin, fromUnits } from '@p2p/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { AppError } from '../errors/index.ts';
import { account, balanceOf, checkLedger, LedgerRefConflictError, post } from './index.ts';

let t: TestApp;
const members: number[] = [];

beforeAll(async () => {
  t = await createTestApp();
  for (let i = 0; i < 4; i++) {
    const m = await t.app.deps.db
      .insertInto('members')
      .values({
        login_id: `ledger${i}`,
        nickname: `ledger${i}`,
        name: 'Ledger Test',
        country_code: '82',
        phone_e164: `+8210000000${i}`,
        password_hash: 'x',
        bank_name: null,
        account_no: null,
        suspended_reason: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    members.push(m.id);
  }
});
afterAll(() => t.close());

const deposit = (memberId: number, coin: Coin, units: bigint, ref: string) =>
  t.app.deps.db.transaction().execute((tx) =>
    post(tx, {
      ref,
      kind: 'deposit',
      postings: [
        { account: account.chain(coin), amount: -units },
        { account: account.available(memberId, coin), amount: units },
      ],
    }),
  );

describe('ledger', () => {
  it('refuses unbalanced entries before touching the database', async () => {
    await expect(
      t.app.deps.db.transaction().execute((tx) =>
        post(tx, {
          ref: 'bad-1',
          kind: 'deposit',
          postings: [
            { account: account.chain('BTC'), amount: -5n },
            { account: account.available(members[0]!, 'BTC'), amount: 4n },
          ],
        }),
      ),
    ).rejects.toThrow(/unbalanced/);
  });

  it('posts once per ref: a retry moves nothing', async () => {
    const a = await deposit(members[0]!, 'ETH', 100_000_000n, 'dep-eth-1');
    const b = await deposit(members[0]!, 'ETH', 100_000_000n, 'dep-eth-1');
    expect(a.created).toBe(true);
    expect(b).toEqual({ entryId: a.entryId, created: false });
    expect(await balanceOf(t.app.deps.db, account.available(members[0]!, 'ETH'))).toBe(100_000_000n);
    expect(await balanceOf(t.app.deps.db, account.chain('ETH'))).toBe(-100_000_000n);
    await t.assertLedger();
  });

  it('refuses a ref replayed with another amount, account or kind, and moves nothing', async () => {
    const first = await deposit(members[2]!, 'ETH', 300n, 'dep-eth-replay');
    // The same movement, its postings in another order: still a harmless replay.
    const same = await t.app.deps.db.transaction().execute((tx) =>
      post(tx, {
        ref: 'dep-eth-replay',
        kind: 'deposit',
        postings: [
          { account: account.available(members[2]!, 'ETH'), amount: 300n },
          { account: account.chain('ETH'), amount: -300n },
        ],
      }),
    );
    expect(same).toEqual({ entryId: first.entryId, created: false });
    await expect(deposit(members[2]!, 'ETH', 301n, 'dep-eth-replay')).rejects.toThrow(LedgerRefConflictError);
    await expect(deposit(members[3]!, 'ETH', 300n, 'dep-eth-replay')).rejects.toThrow(LedgerRefConflictError);
    await expect(deposit(members[2]!, 'BTC', 300n, 'dep-eth-replay')).rejects.toThrow(LedgerRefConflictError);
    await expect(
      t.app.deps.db.transaction().execute((tx) =>
        post(tx, {
          ref: 'dep-eth-replay',
          kind: 'withdrawal_complete',
          postings: [
            { account: account.chain('ETH'), amount: -300n },
            { account: account.available(members[2]!, 'ETH'), amount: 300n },
          ],
        }),
      ),
    ).rejects.toThrow(LedgerRefConflictError);
    expect(await balanceOf(t.app.deps.db, account.available(members[2]!, 'ETH'))).toBe(300n);
    expect(await balanceOf(t.app.deps.db, account.available(members[3]!, 'ETH'))).toBe(0n);
    await t.assertLedger();
  });

  it('never lets a member account go below zero and rolls the whole entry back', async () => {
    await deposit(members[1]!, 'XRP', 500n, 'dep-xrp-1');
    const attempt = t.app.deps.db.transaction().execute((tx) =>
      post(tx, {
        ref: 'overdraw-1',
        kind: 'transfer_internal',
        postings: [
          { account: account.available(members[1]!, 'XRP'), amount: -501n },
          { account: account.available(members[2]!, 'XRP'), amount: 501n },
        ],
      }),
    );
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
    expect(await balanceOf(t.app.deps.db, account.available(members[1]!, 'XRP'))).toBe(500n);
    const entry = await t.app.deps.db
      .selectFrom('ledger_entries')
      .select('id')
      .where('ref', '=', 'overdraw-1')
      .executeTakeFirst();
    expect(entry).toBeUndefined();
    await t.assertLedger();
  });

  it('keeps every invariant over random sequences of movements (property)', async () => {
    let seq = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            from: fc.integer({ min: 0, max: 3 }),
            to: fc.integer({ min: 0, max: 3 }),
            coin: fc.constantFrom(...COINS),
            units: fc.bigInt({ min: 1n, max: 10n ** 12n }),
            kind: fc.constantFrom('deposit', 'transfer_internal', 'escrow_hold'),
          }),
          { minLength: 1, maxLength: 15 },
        ),
        async (ops) => {
          for (const op of ops) {
            if (op.kind === 'transfer_internal' && op.from === op.to) continue;
            const ref = `prop-${seq++}`;
            const from = members[op.from]!;
            const to = members[op.to]!;
            const postings =
              op.kind === 'deposit'
                ? [
                    { account: account.chain(op.coin), amount: -op.units },
                    { account: account.available(to, op.coin), amount: op.units },
                  ]
                : op.kind === 'escrow_hold'
                  ? [
                      { account: account.available(from, op.coin), amount: -op.units },
                      { account: account.escrow(from, op.coin), amount: op.units },
                    ]
                  : [
                      { account: account.available(from, op.coin), amount: -op.units },
                      { account: account.available(to, op.coin), amount: op.units },
                    ];
            const before = await balanceOf(t.app.deps.db, account.available(from, op.coin));
            try {
              await t.app.deps.db.transaction().execute((tx) => post(tx, { ref, kind: op.kind, postings }));
            } catch (err) {
              expect(err).toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
              expect(op.kind === 'deposit' || before < op.units).toBe(true);
              expect(op.kind).not.toBe('deposit');
            }
          }
          const r = await checkLedger(t.app.deps.db);
          expect(r.problems).toEqual([]);
        },
      ),
      { numRuns: 15 },
    );
  });

  it('formats balances exactly, never through floats', async () => {
    const before = await balanceOf(t.app.deps.db, account.available(members[3]!, 'BTC'));
    await deposit(members[3]!, 'BTC', 1n, 'dep-sat');
    await deposit(members[3]!, 'BTC', 2_099_999_999_999_999n, 'dep-big');
    const after = await balanceOf(t.app.deps.db, account.available(members[3]!, 'BTC'));
    expect(fromUnits(after - before)).toBe('21000000');
    expect(fromUnits(after - before + 1n)).toBe('21000000.00000001');
  });
});
