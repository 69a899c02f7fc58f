import { type Coin, toUnits } from '@p2p/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createWalletFor, type FixtureMember, fundMember } from '../../../test/fixtures.ts';
import { createTestApp, onPostgres, type TestApp } from '../../../test/helpers.ts';
import { account, balanceOf } from '../../ledger/index.ts';
import type { WalletRow } from './service.ts';

let t: TestApp;
let alice: FixtureMember;
let bob: FixtureMember;
const w: Record<string, WalletRow> = {};
// A valid mainnet segwit address that is nobody's wallet (BIP-173 vector).
const EXTERNAL_BTC = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const EXTERNAL_ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

beforeAll(async () => {
  // The parallel-withdrawal test sends 50 step-ups at once: each reserves a try of the failure budget.
  t = await createTestApp({ WITHDRAW_FEE_BTC: '0.0001', STEP_UP_MAX_FAILURES: '1000' });
  alice = await createMember(t);
  bob = await createMember(t);
  for (const coin of ['BTC', 'ETH', 'XRP'] as const) {
    w[`alice${coin}`] = await createWalletFor(t, alice.id, coin);
    w[`bob${coin}`] = await createWalletFor(t, bob.id, coin);
  }
  await fundMember(t, alice.id, 'BTC', '1');
  await fundMember(t, alice.id, 'ETH', '10');
});
afterAll(() => t.close());

const avail = (memberId: number, coin: Coin) => balanceOf(t.app.deps.db, account.available(memberId, coin));

interface TransferOut {
  transferId: number;
  walletId: number;
  type: string;
  destType: string;
  status: string;
  address: string;
  amount: string;
  fee: string;
  txid: string | null;
  completedAt: string | null;
}
interface Page {
  list: TransferOut[];
  nextCursor: string | null;
  totalCount: number;
}

// Every request carries the member's step-up (DECISIONS §13): these tests are about the transfer rules.
const request = (m: FixtureMember, body: Record<string, unknown>) =>
  t.call<TransferOut>('POST', '/transfer/request', {
    token: m.token,
    body:
      typeof body === 'object' && body !== null && !Array.isArray(body)
        ? { stepUp: { password: m.password }, ...body }
        : body,
  });

describe('internal transfers', () => {
  it('moves the amount at once, with a WITHDRAW and a DEPOSIT row linked to each other', async () => {
    const r = await request(alice, {
      fromWalletId: w.aliceETH!.id,
      destType: 'INTERNAL',
      amount: '1.25',
      destInternalAddress: w.bobETH!.address.toLowerCase(), // any spelling of the address
    });
    expect(r.status).toBe(200);
    expect(r.body.returnData).toMatchObject({
      type: 'WITHDRAW',
      destType: 'INTERNAL',
      status: 'COMPLETED',
      amount: '1.25',
      address: w.bobETH!.address,
    });
    expect(await avail(alice.id, 'ETH')).toBe(toUnits('8.75'));
    expect(await avail(bob.id, 'ETH')).toBe(toUnits('1.25'));
    const rows = await t.app.deps.db
      .selectFrom('transfers')
      .selectAll()
      .where('coin', '=', 'ETH')
      .orderBy('id')
      .execute();
    expect(rows.length).toBe(2);
    const [out, inbound] = rows;
    expect(inbound).toMatchObject({
      type: 'DEPOSIT',
      member_id: bob.id,
      wallet_id: w.bobETH!.id,
      counterpart_id: out!.id,
      address: w.aliceETH!.address,
    });
    expect(out!.counterpart_id).toBe(inbound!.id);
    const bobPage = await t.call<Page>('GET', `/transfer?walletId=${w.bobETH!.id}`, { token: bob.token });
    expect(bobPage.body.returnData.list.map((x) => [x.type, x.amount])).toEqual([['DEPOSIT', '1.25']]);
    const wallets = await t.call<{ coinCode: string; balance: string }[]>('GET', '/api/v1/wallets', {
      token: bob.token,
    });
    expect(wallets.body.returnData.find((x) => x.coinCode === 'ETH')?.balance).toBe('1.25');
    await t.assertLedger();
  });

  it('refuses a destination that is no ACTIVE wallet of the same coin', async () => {
    for (const dest of [w.bobBTC!.address, EXTERNAL_ETH, 'nonsense']) {
      const r = await request(alice, {
        fromWalletId: w.aliceETH!.id,
        destType: 'INTERNAL',
        amount: '1',
        destInternalAddress: dest,
      });
      expect(r.status, dest).toBe(404);
      expect(r.body.returnMessage).toBe('WALLET_NOT_FOUND');
    }
    await t.app.deps.db
      .updateTable('wallets')
      .set({ status: 'DISABLED' })
      .where('id', '=', w.bobXRP!.id)
      .execute();
    await fundMember(t, alice.id, 'XRP', '5');
    const r = await request(alice, {
      fromWalletId: w.aliceXRP!.id,
      destType: 'INTERNAL',
      amount: '1',
      destInternalAddress: w.bobXRP!.address,
    });
    expect(r.body.returnMessage).toBe('WALLET_NOT_FOUND');
    expect(await avail(alice.id, 'XRP')).toBe(toUnits('5'));
    await t.assertLedger();
  });
});

describe('external withdrawals', () => {
  it('holds amount + fee: available -> withdrawal_pending and fees, status PENDING', async () => {
    const before = await avail(alice.id, 'BTC');
    const r = await request(alice, {
      fromWalletId: w.aliceBTC!.id,
      destType: 'EXTERNAL',
      amount: '0.5',
      destExternalAddress: EXTERNAL_BTC.toUpperCase(),
    });
    expect(r.status).toBe(200);
    expect(r.body.returnData).toMatchObject({
      type: 'WITHDRAW',
      destType: 'EXTERNAL',
      status: 'PENDING',
      amount: '0.5',
      fee: '0.0001',
      address: EXTERNAL_BTC,
      completedAt: null,
    });
    expect(await avail(alice.id, 'BTC')).toBe(before - toUnits('0.5001'));
    expect(await balanceOf(t.app.deps.db, account.withdrawalPending('BTC'))).toBe(toUnits('0.5'));
    expect(await balanceOf(t.app.deps.db, account.fees('BTC'))).toBe(toUnits('0.0001'));
    await t.assertLedger();
  });

  it('accepts thousands separators and has no fee where none is configured', async () => {
    await fundMember(t, alice.id, 'ETH', '2000');
    const r = await request(alice, {
      fromWalletId: w.aliceETH!.id,
      destType: 'EXTERNAL',
      amount: '1,000.5',
      destExternalAddress: EXTERNAL_ETH,
    });
    expect(r.body.returnData).toMatchObject({ amount: '1000.5', fee: '0', status: 'PENDING' });
    await t.assertLedger();
  });
});

describe('every withdraw rule refused with its code, nothing moved', () => {
  const cases: [string, () => Record<string, unknown>, number, string, Record<string, string>?][] = [
    [
      'amount missing',
      () => ({ fromWalletId: w.aliceBTC!.id, destType: 'EXTERNAL', destExternalAddress: EXTERNAL_BTC }),
      400,
      'VALIDATION_FAILED',
      { amount: 'REQUIRED' },
    ],
    [
      'amount not a number',
      () => ({
        fromWalletId: w.aliceBTC!.id,
        destType: 'EXTERNAL',
        amount: '1.2.3',
        destExternalAddress: EXTERNAL_BTC,
      }),
      400,
      'VALIDATION_FAILED',
      { amount: 'AMOUNT_INVALID' },
    ],
    [
      'amount negative',
      () => ({
        fromWalletId: w.aliceBTC!.id,
        destType: 'EXTERNAL',
        amount: '-1',
        destExternalAddress: EXTERNAL_BTC,
      }),
      400,
      'VALIDATION_FAILED',
      { amount: 'AMOUNT_INVALID' },
    ],
    [
      'amount as a JSON number',
      () => ({
        fromWalletId: w.aliceBTC!.id,
        destType: 'EXTERNAL',
        amount: 0.1,
        destExternalAddress: EXTERNAL_BTC,
      }),
      400,
      'VALIDATION_FAILED',
      { amount: 'REQUIRED' },
    ],
    [
      '7 decimals',
      () => ({
        fromWalletId: w.aliceBTC!.id,
        destType: 'EXTERNAL',
        amount: '0.0000001',
        destExternalAddress: EXTERNAL_BTC,
      }),
      400,
      'VALIDATION_FAILED',
      { amount: 'AMOUNT_DECIMALS' },
    ],
    [
      'zero',
      () => ({
        fromWalletId: w.aliceBTC!.id,
        destType: 'EXTERNAL',
        amount: '0.000',
        destExternalAddress: EXTERNAL_BTC,
      }),
      400,
      'VALIDATION_FAILED',
      { amount: 'AMOUNT_NOT_POSITIVE' },
    ],
    [
      'bad destType',
      () => ({
        fromWalletId: w.aliceBTC!.id,
        destType: 'CHAIN',
        amount: '0.1',
        destExternalAddress: EXTERNAL_BTC,
      }),
      400,
      'VALIDATION_FAILED',
      { destType: 'INVALID_FORMAT' },
    ],
    [
      'internal without address',
      () => ({ fromWalletId: w.aliceBTC!.id, destType: 'INTERNAL', amount: '0.1' }),
      400,
      'VALIDATION_FAILED',
      { destInternalAddress: 'REQUIRED' },
    ],
    [
      'external without address',
      () => ({
        fromWalletId: w.aliceBTC!.id,
        destType: 'EXTERNAL',
        amount: '0.1',
        destInternalAddress: w.bobBTC!.address,
      }),
      400,
      'VALIDATION_FAILED',
      { destExternalAddress: 'REQUIRED' },
    ],
    [
      'bad checksum',
      () => ({
        fromWalletId: w.aliceBTC!.id,
        destType: 'EXTERNAL',
        amount: '0.1',
        destExternalAddress: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5',
      }),
      400,
      'INVALID_ADDRESS',
    ],
    [
      'testnet address on mainnet',
      () => ({
        fromWalletId: w.aliceBTC!.id,
        destType: 'EXTERNAL',
        amount: '0.1',
        destExternalAddress: 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7',
      }),
      400,
      'INVALID_ADDRESS',
    ],
    [
      "another coin's address",
      () => ({
        fromWalletId: w.aliceBTC!.id,
        destType: 'EXTERNAL',
        amount: '0.1',
        destExternalAddress: EXTERNAL_ETH,
      }),
      400,
      'INVALID_ADDRESS',
    ],
    [
      'ETH with a wrong EIP-55 case',
      () => ({
        fromWalletId: w.aliceETH!.id,
        destType: 'EXTERNAL',
        amount: '0.1',
        destExternalAddress: EXTERNAL_ETH.replace('aA', 'Aa'),
      }),
      400,
      'INVALID_ADDRESS',
    ],
    [
      'own address, internal',
      () => ({
        fromWalletId: w.aliceBTC!.id,
        destType: 'INTERNAL',
        amount: '0.1',
        destInternalAddress: w.aliceBTC!.address,
      }),
      422,
      'SELF_TRANSFER',
    ],
    [
      'own address, external',
      () => ({
        fromWalletId: w.aliceBTC!.id,
        destType: 'EXTERNAL',
        amount: '0.1',
        destExternalAddress: w.aliceBTC!.address.toUpperCase(),
      }),
      422,
      'SELF_TRANSFER',
    ],
    [
      'over the balance',
      () => ({
        fromWalletId: w.aliceBTC!.id,
        destType: 'EXTERNAL',
        amount: '0.49999',
        destExternalAddress: EXTERNAL_BTC,
      }),
      422,
      'INSUFFICIENT_BALANCE',
    ],
    [
      'over the balance, internal',
      () => ({
        fromWalletId: w.aliceBTC!.id,
        destType: 'INTERNAL',
        amount: '0.5',
        destInternalAddress: w.bobBTC!.address,
      }),
      422,
      'INSUFFICIENT_BALANCE',
    ],
    [
      "another member's wallet",
      () => ({
        fromWalletId: w.bobBTC!.id,
        destType: 'INTERNAL',
        amount: '0.1',
        destInternalAddress: w.aliceBTC!.address,
      }),
      404,
      'WALLET_NOT_FOUND',
    ],
    [
      'no such wallet',
      () => ({
        fromWalletId: 999999,
        destType: 'EXTERNAL',
        amount: '0.1',
        destExternalAddress: EXTERNAL_BTC,
      }),
      404,
      'WALLET_NOT_FOUND',
    ],
  ];

  for (const [name, body, status, code, fields] of cases) {
    it(name, async () => {
      const before = await t.app.deps.db
        .selectFrom('ledger_accounts')
        .select(['id', 'balance'])
        .orderBy('id')
        .execute();
      const count = await t.app.deps.db
        .selectFrom('transfers')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const r = await request(alice, body());
      expect(r.status).toBe(status);
      expect(r.body.returnMessage).toBe(code);
      if (fields) expect(r.body.returnData).toEqual({ fields });
      expect(
        await t.app.deps.db.selectFrom('ledger_accounts').select(['id', 'balance']).orderBy('id').execute(),
      ).toEqual(before);
      const after = await t.app.deps.db
        .selectFrom('transfers')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(count.n));
      await t.assertLedger();
    });
  }

  it('the exact available balance (amount + fee) is accepted', async () => {
    // alice BTC: 1 - 0.5001 = 0.4999 available; 0.4998 + 0.0001 fee = all of it.
    const r = await request(alice, {
      fromWalletId: w.aliceBTC!.id,
      destType: 'EXTERNAL',
      amount: '0.4998',
      destExternalAddress: EXTERNAL_BTC,
    });
    expect(r.status).toBe(200);
    expect(await avail(alice.id, 'BTC')).toBe(0n);
    await t.assertLedger();
  });
});

describe('malformed bodies', () => {
  it('answer 400 VALIDATION_FAILED, never a 5xx', async () => {
    const bodies: unknown[] = [
      null,
      [],
      'text',
      {},
      { fromWalletId: 'abc', destType: 'EXTERNAL', amount: '1', destExternalAddress: EXTERNAL_BTC },
      { fromWalletId: -1, destType: 'EXTERNAL', amount: '1', destExternalAddress: EXTERNAL_BTC },
      { fromWalletId: 1e300, destType: 'EXTERNAL', amount: '1', destExternalAddress: EXTERNAL_BTC },
      {
        fromWalletId: 1,
        destType: 'EXTERNAL',
        amount: '9'.repeat(10_000),
        destExternalAddress: EXTERNAL_BTC,
      },
      { fromWalletId: 1, destType: 'EXTERNAL', amount: '1', destExternalAddress: 'x'.repeat(10_000) },
      { fromWalletId: 1, destType: 'INTERNAL', amount: '1', destInternalAddress: { a: 1 } },
      { fromWalletId: 1, destType: 'EXTERNAL', amount: ['1'], destExternalAddress: EXTERNAL_BTC },
    ];
    for (const body of bodies) {
      const r = await request(alice, body as Record<string, unknown>);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(r.body.returnMessage).toBe('VALIDATION_FAILED');
    }
    const queries = [
      'walletId=abc',
      'walletId=1&size=0',
      'walletId=1&size=51',
      `walletId=1&cursor=${'a'.repeat(300)}`,
    ];
    for (const q of queries) {
      const r = await t.call('GET', `/transfer?${q}`, { token: alice.token });
      expect(r.status, q).toBe(400);
    }
  });
});

describe('GET /transfer', () => {
  it("answers 404 for another member's wallet and 400 for a forged cursor", async () => {
    const r = await t.call('GET', `/transfer?walletId=${w.aliceETH!.id}`, { token: bob.token });
    expect(r.status).toBe(404);
    expect(r.body.returnMessage).toBe('WALLET_NOT_FOUND');
    const c = await t.call('GET', `/transfer?walletId=${w.aliceETH!.id}&cursor=abc`, { token: alice.token });
    expect(c.status).toBe(400);
    const missing = await t.call('GET', '/transfer', { token: alice.token });
    expect(missing.status).toBe(400);
  });

  it('pages newest first with an opaque cursor and the total count', async () => {
    for (let i = 1; i <= 23; i++) {
      const r = await request(alice, {
        fromWalletId: w.aliceETH!.id,
        destType: 'INTERNAL',
        amount: `0.0${String(i).padStart(2, '0')}`,
        destInternalAddress: w.bobETH!.address,
      });
      expect(r.status).toBe(200);
    }
    const p1 = await t.call<Page>('GET', `/transfer?walletId=${w.aliceETH!.id}`, { token: alice.token });
    expect(p1.body.returnData.list.length).toBe(20);
    expect(p1.body.returnData.totalCount).toBe(25);
    expect(p1.body.returnData.list[0]!.amount).toBe('0.023');
    const p2 = await t.call<Page>(
      'GET',
      `/transfer?walletId=${w.aliceETH!.id}&cursor=${p1.body.returnData.nextCursor}`,
      { token: alice.token },
    );
    expect(p2.body.returnData.list.length).toBe(5);
    expect(p2.body.returnData.nextCursor).toBeNull();
    const ids = [...p1.body.returnData.list, ...p2.body.returnData.list].map((x) => x.transferId);
    expect(new Set(ids).size).toBe(25);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    await t.assertLedger();
  });
});

describe('on PostgreSQL: concurrent withdrawals', () => {
  it.runIf(onPostgres)(
    '50 parallel withdrawals against a balance covering 10: exactly 10 accepted',
    async () => {
      const carol = await createMember(t);
      const wallet = await createWalletFor(t, carol.id, 'ETH');
      await fundMember(t, carol.id, 'ETH', '1');
      const results = await Promise.all(
        Array.from({ length: 50 }, () =>
          request(carol, {
            fromWalletId: wallet.id,
            destType: 'EXTERNAL',
            amount: '0.1',
            destExternalAddress: EXTERNAL_ETH,
          }),
        ),
      );
      expect(results.filter((r) => r.status === 200).length).toBe(10);
      const refused = results.filter((r) => r.status !== 200);
      expect(refused.length).toBe(40);
      for (const r of refused) {
        expect(r.status).toBe(422);
        expect(r.body.returnMessage).toBe('INSUFFICIENT_BALANCE');
      }
      expect(await avail(carol.id, 'ETH')).toBe(0n);
      const pending = await t.app.deps.db
        .selectFrom('transfers')
        .select('id')
        .where('wallet_id', '=', wallet.id)
        .execute();
      expect(pending.length).toBe(10);
      const negative = await t.app.deps.db
        .selectFrom('ledger_accounts')
        .select('id')
        .where('member_id', 'is not', null)
        .where('balance', '<', '0')
        .execute();
      expect(negative).toEqual([]);
      await t.assertLedger();
    },
  );
});
