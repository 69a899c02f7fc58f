import type { ChainStatus, Transfer } from '@p2p/contract';
import { type EventSourceMessage, EventSourceParserStream } from 'eventsource-parser/stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeChain, randomTxid } from '../../../test/fake-chain.ts';
import { createMember, type FixtureMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { entryRef } from '../../ledger/entries.ts';
import {
  available,
  chainAmount,
  type Depositor,
  depositor,
  scanToTip,
  transfersOf,
  watcherOf,
} from './test-kit.ts';
import { DepositWatcher, redactNodeError } from './watcher.ts';

/**
 * The deposit watcher against an in-memory chain (DECISIONS §17): a deposit seen PENDING with its confirmations,
 * credited at the count in the transaction of its ledger entry, BELOW_MINIMUM, reorgs, one active watcher of
 * several, a node that fails, hangs or lies. Real database (PostgreSQL with DATABASE_URL, else PGlite), real HTTP
 * for the live events.
 */

const ETH = (n: string) => chainAmount(n, 18);
let t: TestApp;
let chain: FakeChain;
let op: FixtureMember;
let base: string;

beforeAll(async () => {
  chain = new FakeChain('ETH');
  t = await createTestApp(
    {
      CHAIN_CONFIRMATIONS_ETH: '2',
      CHAIN_START_HEIGHT_ETH: '0',
      DEPOSIT_MIN_ETH: '0.01',
      CHAIN_TIMEOUT_MS: '300',
      JWT_SECRET: 'deposit-watcher-test-secret-of-32-chars-or-more',
    },
    { chainReaders: { ETH: chain }, startWatchers: false },
  );
  op = await createMember(t, { role: 'OPERATOR' });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

const watcher = () => watcherOf(t, 'ETH');
const ledgerRef = (txid: string, index = 0) =>
  t.app.deps.db
    .selectFrom('ledger_entries')
    .select('id')
    .where('ref', '=', entryRef.depositCredit('ETH', txid, index).ref)
    .execute();
const statusOf = async () => {
  const r = await t.call<ChainStatus[]>('GET', '/ops/api/v1/chain/status', { token: op.token });
  expect(r.status).toBe(200);
  const eth = r.body.returnData.find((s) => s.coinCode === 'ETH');
  if (!eth) throw new Error('no ETH status');
  return { eth, all: r.body.returnData };
};

/** An open SSE stream of the member's live events over real HTTP. */
async function openStream(token: string) {
  const ac = new AbortController();
  const res = await fetch(`${base}/api/v1/events`, {
    headers: { authorization: `Bearer ${token}` },
    signal: ac.signal,
  });
  const events: EventSourceMessage[] = [];
  const reader = res.body
    ?.pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  void (async () => {
    try {
      for (;;) {
        const r = await reader?.read();
        if (!r || r.done) break;
        events.push(r.value);
      }
    } catch {
      // aborted
    }
  })();
  return { events, close: () => ac.abort() };
}

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('a deposit from the chain', () => {
  let alice: Depositor;

  beforeAll(async () => {
    alice = await depositor(t, 'ETH');
  });

  it('is PENDING with its confirmations when seen, credited at the count with the chain txid, once', async () => {
    const stream = await openStream(alice.member.token);
    await new Promise((r) => setTimeout(r, 100));
    const block = chain.mine([{ to: alice.wallet.address, amount: ETH('1.5') }]);
    const txid = block.payments[0]?.txid ?? '';
    await scanToTip(watcher());

    let [dep] = await transfersOf(t, alice);
    expect(dep).toMatchObject({
      type: 'DEPOSIT',
      destType: 'EXTERNAL',
      status: 'PENDING',
      amount: '1.5',
      txid,
      confirmations: 1,
      requiredConfirmations: 2,
      completedAt: null,
    });
    expect(await available(t, alice, 'ETH')).toBe(0n);
    expect(await ledgerRef(txid)).toHaveLength(0);

    chain.mine();
    await scanToTip(watcher());
    [dep] = await transfersOf(t, alice);
    expect(dep).toMatchObject({ status: 'COMPLETED', confirmations: 2, requiredConfirmations: 2, txid });
    expect(await available(t, alice, 'ETH')).toBe(150_000_000n);
    expect(await ledgerRef(txid)).toHaveLength(1);

    // more blocks and a rescan of nothing new credit nothing again
    chain.mineEmpty(3);
    await scanToTip(watcher());
    expect(await available(t, alice, 'ETH')).toBe(150_000_000n);
    const [again] = await transfersOf(t, alice);
    expect(again).toMatchObject({ status: 'COMPLETED', confirmations: 2 });

    const notes = await t.call<{ list: { kind: string; data: Record<string, unknown> }[] }>(
      'GET',
      '/api/v1/notifications',
      { token: alice.member.token },
    );
    expect(notes.body.returnData.list.filter((n) => n.kind === 'DEPOSIT_CREDITED')).toEqual([
      expect.objectContaining({
        data: { transferId: dep?.transferId, walletId: alice.wallet.id, coinCode: 'ETH', amount: '1.5' },
      }),
    ]);
    await until(
      () => stream.events.some((e) => e.event === 'transfer' && JSON.parse(e.data).status === 'COMPLETED'),
      'the COMPLETED transfer event',
    );
    const transferEvents = stream.events.filter((e) => e.event === 'transfer').map((e) => JSON.parse(e.data));
    expect(transferEvents[0]).toEqual({ id: dep?.transferId, status: 'PENDING' });
    expect(transferEvents.at(-1)).toEqual({ id: dep?.transferId, status: 'COMPLETED' });
    expect(
      stream.events.some((e) => e.event === 'notification' && JSON.parse(e.data).kind === 'DEPOSIT_CREDITED'),
    ).toBe(true);
    stream.close();
    await t.assertLedger();
  });

  it('records a deposit under DEPOSIT_MIN as BELOW_MINIMUM and never credits it', async () => {
    const bob = await depositor(t, 'ETH');
    const block = chain.mine([{ to: bob.wallet.address, amount: ETH('0.00999999') }]);
    chain.mineEmpty(3);
    await scanToTip(watcher());
    const [dep] = await transfersOf(t, bob);
    expect(dep).toMatchObject({
      status: 'BELOW_MINIMUM',
      amount: '0.00999999',
      txid: block.payments[0]?.txid,
      confirmations: 2,
      requiredConfirmations: 2,
    });
    expect(await available(t, bob, 'ETH')).toBe(0n);
    await t.assertLedger();
  });

  it('converts wei exactly, rounding the part below 10^-8 ETH down; pure dust is not recorded', async () => {
    const carol = await depositor(t, 'ETH');
    chain.mine([
      { to: carol.wallet.address, amount: 123_456_789_123_456_789n },
      { to: carol.wallet.address, amount: 9_999_999_999n },
    ]);
    chain.mine();
    await scanToTip(watcher());
    const list = await transfersOf(t, carol);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ status: 'COMPLETED', amount: '0.12345678' });
    expect(await available(t, carol, 'ETH')).toBe(12_345_678n);
  });

  it('credits each output of one transaction to its own member once', async () => {
    const a = await depositor(t, 'ETH');
    const b = await depositor(t, 'ETH');
    const txid = randomTxid('ETH');
    chain.mine([
      { to: a.wallet.address, amount: ETH('1'), txid, outputIndex: 0 },
      { to: b.wallet.address, amount: ETH('2'), txid, outputIndex: 1 },
      { to: a.wallet.address, amount: ETH('3'), txid, outputIndex: 2 },
      { to: '0x000000000000000000000000000000000000dEaD', amount: ETH('4'), txid, outputIndex: 3 },
    ]);
    chain.mine();
    await scanToTip(watcher());
    expect(await available(t, a, 'ETH')).toBe(400_000_000n);
    expect(await available(t, b, 'ETH')).toBe(200_000_000n);
    expect(await ledgerRef(txid, 0)).toHaveLength(1);
    expect(await ledgerRef(txid, 1)).toHaveLength(1);
    expect(await ledgerRef(txid, 2)).toHaveLength(1);
    expect(await ledgerRef(txid, 3)).toHaveLength(0);
    await t.assertLedger();
  });
});

describe('reorgs', () => {
  it('drops an unconfirmed deposit whose block left the chain and did not come back, never crediting it', async () => {
    const dave = await depositor(t, 'ETH');
    await scanToTip(watcher());
    const fork = chain.tip;
    const block = chain.mine([{ to: dave.wallet.address, amount: ETH('5') }]);
    await scanToTip(watcher());
    expect((await transfersOf(t, dave))[0]).toMatchObject({ status: 'PENDING', confirmations: 1 });

    // the block is replaced by one without the payment: the deposit leaves the chain
    chain.reorg(fork, [[]]);
    await scanToTip(watcher());
    expect((await transfersOf(t, dave))[0]).toMatchObject({ status: 'PENDING', confirmations: 0 });
    // fork + 2 confirmations passes without it: DROPPED
    chain.mine();
    await scanToTip(watcher());
    const [dep] = await transfersOf(t, dave);
    expect(dep).toMatchObject({ status: 'DROPPED', txid: block.payments[0]?.txid });
    chain.mineEmpty(3);
    await scanToTip(watcher());
    expect((await transfersOf(t, dave))[0]?.status).toBe('DROPPED');
    expect(await available(t, dave, 'ETH')).toBe(0n);
    await t.assertLedger();
  });

  it('keeps a deposit that the new chain includes again, re-counting its confirmations, and credits it once', async () => {
    const erin = await depositor(t, 'ETH');
    await scanToTip(watcher());
    const fork = chain.tip;
    const block = chain.mine([{ to: erin.wallet.address, amount: ETH('2') }]);
    await scanToTip(watcher());
    const p = block.payments[0];
    if (!p) throw new Error('no payment');
    // two other blocks replace it; the payment comes back in the second
    chain.reorg(fork, [[], [{ to: p.to, amount: p.amount, txid: p.txid }]]);
    await scanToTip(watcher());
    expect((await transfersOf(t, erin))[0]).toMatchObject({ status: 'PENDING', confirmations: 1 });
    chain.mine();
    await scanToTip(watcher());
    const list = await transfersOf(t, erin);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ status: 'COMPLETED', confirmations: 2, txid: p.txid });
    expect(await available(t, erin, 'ETH')).toBe(200_000_000n);
    await t.assertLedger();
  });

  it('a credited deposit whose blocks a deep reorg removes stays credited once, and the status page says so', async () => {
    const fay = await depositor(t, 'ETH');
    await scanToTip(watcher());
    const fork = chain.tip;
    chain.mine([{ to: fay.wallet.address, amount: ETH('1') }]);
    chain.mine();
    await scanToTip(watcher());
    expect((await transfersOf(t, fay))[0]?.status).toBe('COMPLETED');
    chain.reorg(fork, [[], [], []]);
    await scanToTip(watcher());
    expect((await transfersOf(t, fay))[0]?.status).toBe('COMPLETED');
    expect(await available(t, fay, 'ETH')).toBe(100_000_000n);
    const { eth } = await statusOf();
    expect(eth.lastError).toMatch(/reorg at \d+ removed the blocks of credited deposit/);
    await t.assertLedger();
  });
});

describe('the operator credit and the watcher', () => {
  it('never both credit one output: the watcher leaves an operator-credited output alone', async () => {
    const gus = await depositor(t, 'ETH');
    const txid = randomTxid('ETH');
    // the operator types the txid in upper case without 0x: the same output as the watcher's
    const body = {
      coinCode: 'ETH',
      address: gus.wallet.address,
      amount: '1',
      txid: txid.slice(2).toUpperCase(),
    };
    const r = await t.call<{ txid: string }>('POST', '/ops/api/v1/deposits', { token: op.token, body });
    expect(r.status).toBe(200);
    expect(r.body.returnData.txid).toBe(txid);
    chain.mine([{ to: gus.wallet.address, amount: ETH('1'), txid }]);
    chain.mineEmpty(2);
    await scanToTip(watcher());
    expect(await available(t, gus, 'ETH')).toBe(100_000_000n);
    expect(await transfersOf(t, gus)).toHaveLength(1);
    await t.assertLedger();
  });

  it('refuses an operator credit of an output the watcher is confirming (409 INVALID_STATE)', async () => {
    const hal = await depositor(t, 'ETH');
    const block = chain.mine([{ to: hal.wallet.address, amount: ETH('1') }]);
    await scanToTip(watcher());
    const txid = block.payments[0]?.txid ?? '';
    const body = { coinCode: 'ETH', address: hal.wallet.address, amount: '1', txid };
    const r = await t.call('POST', '/ops/api/v1/deposits', { token: op.token, body });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ returnMessage: 'INVALID_STATE', returnData: { status: 'PENDING' } });
    chain.mine();
    await scanToTip(watcher());
    expect(await available(t, hal, 'ETH')).toBe(100_000_000n);
    await t.assertLedger();
  });
});

describe('many instances', () => {
  it('of two watchers on one database one is active; a stopped one hands over, a crashed one after its lease', async () => {
    const w1 = watcher();
    const w2 = new DepositWatcher({
      db: t.app.deps.db,
      coin: 'ETH',
      reader: chain,
      network: 'mainnet',
      requiredConfirmations: 2,
      minDeposit: 0n,
      pollMs: 50,
      timeoutMs: 300,
      leaseMs: 600,
      log: t.app.log,
    });
    const ivy = await depositor(t, 'ETH');
    await scanToTip(w1);
    chain.mine([{ to: ivy.wallet.address, amount: ETH('1') }]);
    chain.mine();
    const [a, b] = await Promise.all([w1.scan(), w2.scan()]);
    expect([a.active, b.active].filter(Boolean)).toHaveLength(1);
    expect(a.active).toBe(true);
    expect((await w2.scan()).active).toBe(false);
    expect(await available(t, ivy, 'ETH')).toBe(100_000_000n);

    // a crashed holder (it just stops renewing) is replaced once its lease ran out: w2 had 600 ms leases,
    // w1's is CHAIN_LEASE_MS (30 s): simulate its lapse by waiting out w2's own after it takes over.
    await t.app.deps.db
      .updateTable('chain_watchers')
      .set({ lease_until: new Date(Date.now() - 1000) })
      .execute();
    expect((await w2.scan()).active).toBe(true);
    const jay = await depositor(t, 'ETH');
    chain.mine([{ to: jay.wallet.address, amount: ETH('1') }]);
    chain.mine();
    // the old holder wakes up: the lease is w2's now, w1 applies nothing
    expect((await w1.scan()).active).toBe(false);
    await scanToTip(w2);
    expect(await available(t, jay, 'ETH')).toBe(100_000_000n);
    // w2 stops cleanly: w1 takes over at once
    await w2.stop();
    expect((await w1.scan()).active).toBe(true);
    await t.assertLedger();
  });
});

describe('a holder that lost its lease mid-pass', () => {
  it('writes nothing: the block it was applying is refused (compare-and-set on the cursor and the holder)', async () => {
    await scanToTip(watcher());
    const nat = await depositor(t, 'ETH');
    chain.mine([{ to: nat.wallet.address, amount: ETH('1') }]);
    chain.mine();
    const other = new DepositWatcher({
      db: t.app.deps.db,
      coin: 'ETH',
      reader: chain,
      network: 'mainnet',
      requiredConfirmations: 2,
      minDeposit: 0n,
      pollMs: 50,
      timeoutMs: 300,
      leaseMs: 60_000,
      log: t.app.log,
    });
    let tookOver: Promise<unknown> | null = null;
    const slow = {
      coin: 'ETH' as const,
      tipHeight: () => chain.tipHeight(),
      blockHash: (h: number) => chain.blockHash(h),
      // while the first instance reads a block, its lease runs out and the other instance takes over
      block: async (h: number) => {
        tookOver ??= t.app.deps.db
          .updateTable('chain_watchers')
          .set({ lease_until: new Date(Date.now() - 1000) })
          .execute()
          .then(() => other.scan());
        await tookOver;
        return chain.block(h);
      },
    };
    const stale = new DepositWatcher({
      db: t.app.deps.db,
      coin: 'ETH',
      reader: slow,
      network: 'mainnet',
      requiredConfirmations: 2,
      minDeposit: 0n,
      pollMs: 50,
      timeoutMs: 5_000,
      leaseMs: 60_000,
      log: t.app.log,
    });
    await t.app.deps.db
      .updateTable('chain_watchers')
      .set({ lease_until: new Date(Date.now() - 1000) })
      .execute();
    const r = await stale.scan();
    expect(r).toMatchObject({ active: false, applied: 0 });
    expect(other.isActive).toBe(true);
    expect(await available(t, nat, 'ETH')).toBe(100_000_000n);
    await other.stop();
    await scanToTip(watcher());
    await t.assertLedger();
  });
});

describe('a node that fails', () => {
  it('throws, hangs or lies: the watcher backs off, stores the error (no credentials), never crashes; then recovers', async () => {
    const kim = await depositor(t, 'ETH');
    await scanToTip(watcher());
    for (const mode of ['throw', 'hang', 'garbage'] as const) {
      chain.mode = mode;
      const r = await watcher().scan();
      expect(r.active).toBe(true);
      expect(r.error).toBeTruthy();
      const { eth } = await statusOf();
      expect(eth.lastError).toBeTruthy();
      expect(eth.lastError).not.toContain('secret');
      if (mode !== 'garbage') expect(eth.nodeUp).toBe(false);
      // the API answers meanwhile
      expect((await t.call('GET', '/readyz')).status).toBe(200);
    }
    chain.mode = 'ok';
    chain.mine([{ to: kim.wallet.address, amount: ETH('1') }]);
    chain.mine();
    await scanToTip(watcher());
    const { eth } = await statusOf();
    expect(eth).toMatchObject({ configured: true, nodeUp: true, lagBlocks: 0, watcherActive: true });
    expect(eth.scannedHeight).toBe(chain.tip);
    expect(eth.nodeHeight).toBe(chain.tip);
    expect(await available(t, kim, 'ETH')).toBe(100_000_000n);
  });

  it('skips a malformed payment and logs it, crediting the good ones of the block', async () => {
    const lee = await depositor(t, 'ETH');
    const block = chain.mine([{ to: lee.wallet.address, amount: ETH('1') }]);
    block.payments.push({
      txid: 'nope',
      outputIndex: 0,
      to: lee.wallet.address,
      destinationTag: null,
      amount: 5n,
    });
    block.payments.push({
      txid: randomTxid('ETH'),
      outputIndex: -1,
      to: lee.wallet.address,
      destinationTag: null,
      amount: 5n,
    });
    block.payments.push({
      txid: randomTxid('ETH'),
      outputIndex: 0,
      to: 'nonsense',
      destinationTag: null,
      amount: 5n,
    });
    chain.mine();
    await scanToTip(watcher());
    expect(await transfersOf(t, lee)).toHaveLength(1);
    expect(await available(t, lee, 'ETH')).toBe(100_000_000n);
  });

  it('refuses a block whose parent does not chain and whose hash is malformed, and retries it', async () => {
    await scanToTip(watcher());
    const b = chain.mine();
    const good = b.hash;
    b.hash = 'xyz';
    const r = await watcher().scan();
    expect(r.error).toMatch(/malformed hash/);
    b.hash = good;
    await scanToTip(watcher());
    expect((await statusOf()).eth.scannedHeight).toBe(chain.tip);
  });

  it('keeps credentials of a node URL out of error texts', () => {
    expect(redactNodeError('fetch http://rpcuser:hunter2@10.0.0.5:8332/ failed')).toBe(
      'fetch http://[redacted]@10.0.0.5:8332/ failed',
    );
  });

  it('chain status lists every coin; coins without a node are not configured', async () => {
    const { all } = await statusOf();
    expect(all.map((s) => s.coinCode)).toEqual(['BTC', 'ETH', 'XRP', 'TRX']);
    expect(all.find((s) => s.coinCode === 'BTC')).toMatchObject({
      configured: false,
      scannedHeight: null,
      requiredConfirmations: 2,
    });
    const member = await createMember(t);
    expect((await t.call('GET', '/ops/api/v1/chain/status', { token: member.token })).status).toBe(403);
  });

  it('reports chain_lag_blocks and chain_node_up on /metrics', async () => {
    await scanToTip(watcher());
    chain.mineEmpty(2);
    await watcher()
      .scan()
      .then(() => undefined);
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.body).toMatch(/chain_node_up\{coin="ETH"\} 1/);
    expect(res.body).toMatch(/chain_lag_blocks\{coin="ETH"\} 0/);
  });
});

describe('transfer views', () => {
  it('carry null confirmations for transfers the watcher did not find', async () => {
    const mo = await depositor(t, 'ETH');
    const body = { coinCode: 'ETH', address: mo.wallet.address, amount: '1', txid: randomTxid('ETH') };
    await t.call('POST', '/ops/api/v1/deposits', { token: op.token, body });
    const [dep] = (await transfersOf(t, mo)) as Transfer[];
    expect(dep).toMatchObject({ status: 'COMPLETED', confirmations: null, requiredConfirmations: null });
  });
});

describe('running by itself', () => {
  it('without any CHAIN_RPC_<COIN> no watcher runs: every coin is operator-driven as before', async () => {
    const plain = await createTestApp();
    try {
      expect(plain.app.depositWatchers.watchers.size).toBe(0);
      const operator = await createMember(plain, { role: 'OPERATOR' });
      const r = await plain.call<ChainStatus[]>('GET', '/ops/api/v1/chain/status', { token: operator.token });
      expect(r.body.returnData.map((s) => [s.coinCode, s.configured, s.watcherActive])).toEqual([
        ['BTC', false, false],
        ['ETH', false, false],
        ['XRP', false, false],
        ['TRX', false, false],
      ]);
      const d = await depositor(plain, 'ETH');
      const body = { coinCode: 'ETH', address: d.wallet.address, amount: '1', txid: randomTxid('ETH') };
      expect((await plain.call('POST', '/ops/api/v1/deposits', { token: operator.token, body })).status).toBe(
        200,
      );
      expect(await available(plain, d, 'ETH')).toBe(100_000_000n);
    } finally {
      await plain.close();
    }
  });

  it('polls on its own (CHAIN_POLL_MS), and closing the app stops it even while a node call hangs', async () => {
    const own = new FakeChain('ETH');
    const live = await createTestApp(
      {
        CHAIN_CONFIRMATIONS_ETH: '2',
        CHAIN_START_HEIGHT_ETH: '0',
        CHAIN_POLL_MS: '50',
        CHAIN_TIMEOUT_MS: '600000',
      },
      { chainReaders: { ETH: own } },
    );
    let closed = false;
    try {
      const d = await depositor(live, 'ETH');
      own.mine([{ to: d.wallet.address, amount: ETH('1') }]);
      own.mine();
      await until(async () => (await available(live, d, 'ETH')) === 100_000_000n, 'the credit');
      own.mode = 'hang';
      const calls = own.calls;
      await until(() => own.calls > calls, 'a hanging node call');
      // the node call would time out only after 10 minutes: a close that waited for it fails the test's timeout
      await live.close();
      closed = true;
    } finally {
      if (!closed) await live.close();
    }
  });
});
