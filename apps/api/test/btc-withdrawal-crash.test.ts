import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Envelope, fromUnits, type OpsWithdrawal, toUnits } from '@p2p/contract';
import { Block, address as bitcoinAddress } from 'bitcoinjs-lib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../src/app.ts';
import { addressFromPublicKey, parseAccountKey } from '../src/chains/index.ts';
import { loadConfig } from '../src/config.ts';
import { openDb } from '../src/db/client.ts';
import { qty } from '../src/db/numeric.ts';
import { account, balanceOf, checkLedger } from '../src/ledger/index.ts';
import { bitcoinjsNetwork, unspentOutputs } from '../src/modules/withdrawals/index.ts';
import { type ApiChild, opsWithdrawals, signerJournal, startApiChild, stopApiChild } from './api-child.ts';
import { randomRecipient } from './btc-addresses.ts';
import { createMember, createWalletFor, type FixtureMember } from './fixtures.ts';
import { type TestApp, TRUST_OFF } from './helpers.ts';
import { type FreshDatabase, freshDatabase } from './infra.ts';
import { hasLitecoind, type Litecoind, startLitecoind, toLitecoinRegtestAddress } from './nodes.ts';
import { startSigner, type TestSigner } from './signer.ts';

/**
 * DECISIONS §18 "after a crash the stored transaction is re-sent, never re-signed; the chain pays each withdrawal
 * at most once", for BTC: Litecoin Core in regtest (DECISIONS §17), the real signer process (TEST seed) and the
 * API as a child process (`server.ts`, as `npm start` runs it). Members' deposits, many outputs each, are credited
 * by the watcher; a burst of withdrawals (below WITHDRAW_AUTO_MAX_BTC, so no operator), each larger than any one
 * output (coin selection over several, with change), is paid by the child, which is SIGKILLed several times at
 * random points while it prepares, signs and sends (a block is mined after each kill, so the next life also
 * settles), then runs until every withdrawal is settled. The second time the SIGNER is SIGKILLed instead (twice)
 * and started again on its DATA_DIR, port and token. Each time: every withdrawal ends COMPLETED (or FAILED and,
 * rejected by an operator, refunded), the chain paid each recipient exactly its amount in exactly the stored
 * transaction (read from the blocks), the signer signed each request once, the outputs the database calls
 * unspent are exactly what the node holds at the platform's addresses, the ledger's BTC holdings equal them (so
 * the network fees it posted are the fees the chain took) and the ledger check is clean.
 */

const SAT = 100_000_000n;
const MEMBERS = 4;
const BURST = 12;
/** Deposits per member: outputs of 0.04, 0.05 and 0.06 in turn. */
const DEPOSIT_ROUNDS = 12;
const JWT_SECRET = 'btc-withdrawal-crash-test-secret-of-32-chars';
const dataDir = mkdtempSync(join(tmpdir(), 'p2p-btc-withdrawal-crash-'));
const net = bitcoinjsNetwork('regtest');

interface Member extends FixtureMember {
  walletId: number;
  /** What the watcher credited, satoshi. */
  credited: bigint;
}

interface Expected {
  address: string;
  units: bigint;
  member: Member;
}

let node: Litecoind;
let signer: TestSigner;
let fresh: FreshDatabase | null = null;
let startHeight = 0;
let opToken = '';
const members: Member[] = [];
/** Each withdrawal requested: where it goes, how much, whose. */
const expected = new Map<number, Expected>();
let child: ChildProcess | null = null;

function baseEnv(): Record<string, string> {
  const e: Record<string, string> = {
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    SEED_DEMO: '0',
    PRICE_PROVIDER: 'static',
    LOG_LEVEL: 'warn',
    JWT_SECRET,
    WEB_DIST_DIR: join(dataDir, 'no-web'),
    ...TRUST_OFF,
    // SIGNER_URL, SIGNER_TOKEN, XPUB_<COIN> of the signer's seed, CHAIN_NETWORK=regtest
    ...signer.apiEnv,
    CHAIN_RPC_BTC: node.url,
    CHAIN_CONFIRMATIONS_BTC: '1',
    CHAIN_START_HEIGHT_BTC: String(startHeight),
    CHAIN_TIMEOUT_MS: '30000',
    CHAIN_POLL_MS: '50',
    // a killed holder's lease runs out quickly, so the restarted instance takes over within the test
    CHAIN_LEASE_MS: '1500',
    WITHDRAW_AUTO_MAX_BTC: '1',
    WITHDRAW_RETRY_SEC: '1',
    // a stored transaction the node does not know is sent again, not failed, for the length of the test
    WITHDRAW_MISSING_GRACE_SEC: '3600',
  };
  if (fresh) e.DATABASE_URL = fresh.url;
  return e;
}

/** Runs `fn` on an in-process app on the test's store (no worker running by itself), then closes it. */
async function withApp<T>(fn: (app: App) => Promise<T>): Promise<T> {
  const app = await buildApp(loadConfig(baseEnv()), {
    serveWeb: false,
    startWatchers: false,
    startPayouts: false,
  });
  try {
    return await fn(app);
  } finally {
    await app.close();
  }
}

async function openStore() {
  const config = loadConfig(baseEnv());
  return openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
}

const coins = (sats: bigint) => `${sats / SAT}.${(sats % SAT).toString().padStart(8, '0')}`;

/**
 * DEPOSIT_ROUNDS transactions each paying every member's deposit address once (0.04, 0.05, 0.06 in turn), a
 * block every few (the node's wallet spends its own unconfirmed change), credited by the watcher.
 */
async function fundMembers(app: App): Promise<void> {
  const t = { app } as unknown as TestApp;
  opToken = (await createMember(t, { role: 'OPERATOR' })).token;
  const addresses: string[] = [];
  for (let i = 0; i < MEMBERS; i++) {
    const m = await createMember(t);
    const w = await createWalletFor(t, m.id, 'BTC');
    members.push({ ...m, walletId: w.id, credited: 0n });
    addresses.push(w.address);
  }
  for (let r = 0; r < DEPOSIT_ROUNDS; r++) {
    const sats = 4_000_000n + BigInt(r % 3) * 1_000_000n;
    await node.payMany(Object.fromEntries(addresses.map((a) => [a, coins(sats)])));
    for (const m of members) m.credited += sats;
    if (r % 5 === 4) await node.mine(1);
  }
  await node.mine(1);
  const watcher = app.depositWatchers.watchers.get('BTC');
  if (!watcher) throw new Error('no BTC watcher');
  // the short lease (CHAIN_LEASE_MS) may run out between two blocks on a busy machine: the next scan takes it back
  for (let i = 0; ; i++) {
    const r = await watcher.scan();
    if (r.error) throw new Error(`scan failed: ${r.error}`);
    if (r.active && r.caughtUp) break;
    if (i > 50) throw new Error('the watcher did not reach the tip');
  }
  for (const m of members) {
    expect(await balanceOf(app.deps.db, account.available(m.id, 'BTC'))).toBe(m.credited);
  }
}

/** `n` withdrawals to fresh recipients, left PENDING (no worker runs here); answers their ids. */
async function requestBurst(n: number): Promise<number[]> {
  return withApp(async (app) => {
    const ids: number[] = [];
    for (let i = 0; i < n; i++) {
      const member = members[i % MEMBERS] as Member;
      const address = randomRecipient();
      // 0.06, 0.0611, 0.0622...: each more than any one deposit output (at most 6 decimals, LIMITS.qtyDecimals)
      const units = 6_000_000n + BigInt(expected.size) * 110_000n;
      const res = await app.inject({
        method: 'POST',
        url: '/transfer/request',
        headers: { authorization: `Bearer ${member.token}`, 'content-type': 'application/json' },
        payload: JSON.stringify({
          fromWalletId: member.walletId,
          destType: 'EXTERNAL',
          destExternalAddress: address,
          amount: fromUnits(units),
          stepUp: { password: member.password },
        }),
      });
      expect(res.statusCode, res.body).toBe(200);
      const id = (res.json() as Envelope<{ transferId: number }>).returnData.transferId;
      ids.push(id);
      expected.set(id, { address, units, member });
    }
    return ids;
  });
}

beforeAll(async () => {
  [node, signer] = await Promise.all([
    startLitecoind(),
    startSigner({ env: { CHAIN_NETWORK: 'regtest', SIGNER_MAX_DAY_BTC: '50' } }),
  ]);
  if (process.env.DATABASE_URL) fresh = await freshDatabase(process.env.DATABASE_URL);
  startHeight = (await node.height()) + 1;
  await withApp(fundMembers);
}, 300_000);

afterAll(async () => {
  if (child) await stopApiChild(child, 'SIGKILL');
  await signer?.stop();
  await node?.stop();
  await fresh?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

// a test that failed half-way leaves no API running on the store for the next one
afterEach(async () => {
  if (child) await stopApiChild(child, 'SIGKILL');
  child = null;
});

async function startServer(): Promise<ApiChild> {
  return startApiChild(baseEnv(), (proc) => {
    child = proc;
  });
}

async function stopServer(proc: ChildProcess, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
  await stopApiChild(proc, signal);
  if (child === proc) child = null;
}

/** How many transactions the node has seen since `fromHeight` (in its mempool or in a later block). */
async function sentSince(fromHeight: number): Promise<number> {
  let n = (await node.rpc<string[]>('getrawmempool')).length;
  const tip = await node.height();
  for (let h = fromHeight + 1; h <= tip; h++) {
    const hash = await node.rpc<string>('getblockhash', [h]);
    n += (await node.rpc<{ nTx: number }>('getblockheader', [hash])).nTx - 1;
  }
  return n;
}

/** Waits until the node has seen `count` transactions since `fromHeight`; throws when `proc` died. */
async function untilSeen(fromHeight: number, count: number, proc: ChildProcess): Promise<number> {
  const deadline = Date.now() + 120_000;
  while ((await sentSince(fromHeight)) < count) {
    if (proc.exitCode !== null) throw new Error('the API exited');
    if (Date.now() > deadline) throw new Error(`the node did not see ${count} transactions`);
    await new Promise((r) => setTimeout(r, 5));
  }
  return Date.now();
}

/**
 * Waits until the node has seen `count` transactions since `fromHeight`, then a random share of the time the
 * last one took: the kill lands anywhere in preparing, signing, storing or sending the next one.
 */
async function untilSent(fromHeight: number, count: number, proc: ChildProcess): Promise<void> {
  const before = await untilSeen(fromHeight, count - 1, proc);
  const took = (await untilSeen(fromHeight, count, proc)) - before;
  await new Promise((r) => setTimeout(r, Math.floor(Math.random() * took)));
}

/**
 * Mines a block every 250 ms until each of `ids` is COMPLETED or FAILED (as the operators' list shows them);
 * answers the FAILED ones.
 */
async function untilSettled(base: string, ids: number[]): Promise<OpsWithdrawal[]> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    await node.mine(1);
    await new Promise((r) => setTimeout(r, 250));
    const done = new Set((await opsWithdrawals(base, opToken, 'COMPLETED')).map((w) => w.withdrawalId));
    const failed = (await opsWithdrawals(base, opToken, 'FAILED')).filter((w) =>
      ids.includes(w.withdrawalId),
    );
    for (const w of failed) done.add(w.withdrawalId);
    if (ids.every((id) => done.has(id))) return failed;
    if (Date.now() > deadline) throw new Error(`${ids.filter((id) => !done.has(id)).length} not settled`);
  }
}

/** An operator rejects each FAILED withdrawal (DECISIONS §18 "rejects (refund)"). */
async function rejectFailed(base: string, failed: readonly OpsWithdrawal[]): Promise<void> {
  for (const w of failed) {
    console.warn(`BTC withdrawal crash: ${w.withdrawalId} FAILED: ${w.lastError}`);
    const r = await fetch(`${base}/ops/api/v1/withdrawals/${w.withdrawalId}/reject`, {
      method: 'POST',
      headers: { authorization: `Bearer ${opToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'failed on chain' }),
    });
    expect(r.status, await r.text()).toBe(200);
  }
}

/**
 * Where the crash landed: the attempts of `ids` by state, BROADCAST ones split by whether the node has them
 * (stored but not sent: the kill came between storing and sending), for the log.
 */
async function attemptTally(ids: number[]): Promise<Record<string, number>> {
  const dbh = await openStore();
  try {
    const rows = await dbh.db
      .selectFrom('withdrawal_attempts')
      .select(['status', 'txid'])
      .where('transfer_id', 'in', ids)
      .execute();
    const tally: Record<string, number> = { NOT_PREPARED: ids.length - rows.length };
    for (const r of rows) {
      // output 0 pays the recipient, who never spends it: the node knows the transaction when it has that output
      const known = r.txid ? await node.rpc('gettxout', [r.txid, 0, true]) : null;
      const unsent = r.status === 'BROADCAST' && !known;
      const key = unsent ? 'BROADCAST_NOT_SENT' : r.status;
      tally[key] = (tally[key] ?? 0) + 1;
    }
    return tally;
  } finally {
    await dbh.close();
  }
}

/** Every non-coinbase transaction of the blocks above `fromHeight`. */
async function chainTransactions(fromHeight: number) {
  const txs = [];
  const tip = await node.height();
  for (let h = fromHeight + 1; h <= tip; h++) {
    const hash = await node.rpc<string>('getblockhash', [h]);
    const block = Block.fromHex(await node.rpc<string>('getblock', [hash, 0]));
    txs.push(...(block.transactions ?? []).slice(1));
  }
  return txs;
}

/**
 * What the node holds at the platform's addresses: the members' deposit addresses and the change addresses
 * 1/0..1/(changeKeys-1) of XPUB_BTC, as `txid:vout` -> satoshi.
 */
async function platformUtxos(depositAddresses: string[], changeKeys: number): Promise<Map<string, bigint>> {
  const key = parseAccountKey(signer.xpubs.BTC).deriveChild(1);
  const change = Array.from({ length: changeKeys }, (_, n) =>
    addressFromPublicKey('BTC', key.deriveChild(n).publicKey as Uint8Array, 'regtest'),
  );
  const scan = await node.rpc<{ unspents: { txid: string; vout: number; amount: number }[] }>(
    'scantxoutset',
    ['start', [...depositAddresses, ...change].map((a) => `addr(${toLitecoinRegtestAddress(a)})`)],
  );
  // the node's JSON amounts have at most 8 decimals: toFixed(8) gives their exact digits
  return new Map(
    scan.unspents.map((u) => [`${u.txid}:${u.vout}`, BigInt(u.amount.toFixed(8).replace('.', ''))]),
  );
}

describe.skipIf(!hasLitecoind())(
  'a crash in the middle of paying BTC withdrawals (Litecoin Core regtest)',
  () => {
    it('pays every withdrawal exactly once after the API is SIGKILLed at random points and restarted', async () => {
      const ids = await requestBurst(BURST);
      const from = await node.height();
      const kills: number[] = [];
      for (const share of [0.25, 0.5, 0.75]) {
        // at least one more than the last life sent (it may have gone past this share before it was killed)
        const target = Math.min(BURST, Math.max(Math.ceil(BURST * share), (await sentSince(from)) + 1));
        const life = await startServer();
        await untilSent(from, target, life.proc);
        await stopServer(life.proc, 'SIGKILL');
        kills.push(await sentSince(from));
        console.info('BTC withdrawal crash (API): attempts at the kill', await attemptTally(ids));
        // what was sent before the kill confirms: the next life settles it while it pays the rest
        await node.mine(1);
      }
      console.info(`BTC withdrawal crash (API): sent when killed ${kills.join(', ')} of ${BURST}`);
      expect(kills[0]).toBeGreaterThan(0);
      expect(kills[0]).toBeLessThan(BURST);

      const last = await startServer();
      const failed = await untilSettled(last.base, ids);
      await rejectFailed(last.base, failed);
      await stopServer(last.proc, 'SIGTERM');
      await expectPaidOnce(ids, from);
    }, 300_000);

    it('pays every withdrawal exactly once after the SIGNER is SIGKILLed at random points and restarted', async () => {
      const ids = await requestBurst(BURST);
      const from = await node.height();
      const api = await startServer();
      for (const share of [0.25, 0.6]) {
        await untilSent(from, Math.ceil(BURST * share), api.proc);
        const { dataDir: signerDir, port, token } = signer;
        await signer.kill();
        const atKill = await sentSince(from);
        console.info(`BTC withdrawal crash (signer): killed at ${atKill} of ${BURST} sent`);
        expect(atKill).toBeLessThan(BURST);
        // the API keeps running; operators see why the rest waits, and nothing is half-sent
        await untilWaitingForSigner(api.base, ids);
        signer = await startSigner({
          dataDir: signerDir,
          port,
          token,
          env: { CHAIN_NETWORK: 'regtest', SIGNER_MAX_DAY_BTC: '50' },
        });
      }
      const failed = await untilSettled(api.base, ids);
      await rejectFailed(api.base, failed);
      await stopServer(api.proc, 'SIGTERM');
      await expectPaidOnce(ids, from);
    }, 300_000);
  },
);

/** Waits until one of `ids` is APPROVED, unsent, with SIGNER_UNAVAILABLE as its lastError. */
async function untilWaitingForSigner(base: string, ids: number[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const waiting = (await opsWithdrawals(base, opToken, 'APPROVED')).find(
      (w) => ids.includes(w.withdrawalId) && w.lastError?.includes('SIGNER_UNAVAILABLE'),
    );
    if (waiting) {
      expect(waiting.txid).toBeNull();
      return;
    }
    if (Date.now() > deadline) throw new Error('no withdrawal waits for the signer');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The withdrawals `ids` (requested after height `from`) against the chain: each COMPLETED one paid its recipient
 * exactly its amount, once, in its stored transaction, signed once; a rejected one paid nothing and was refunded;
 * no output spent twice; the database's unspent outputs are the node's, and the ledger holds what they hold.
 */
async function expectPaidOnce(ids: number[], from: number): Promise<void> {
  const txs = await chainTransactions(from);
  const journal = signerJournal(signer.dataDir);
  const dbh = await openStore();
  try {
    const rows = await dbh.db
      .selectFrom('transfers')
      .select(['id', 'status', 'amount', 'txid', 'address'])
      .where('id', 'in', ids)
      .execute();
    const attempts = await dbh.db
      .selectFrom('withdrawal_attempts')
      .select(['transfer_id', 'status', 'txid', 'request_id'])
      .where('transfer_id', 'in', ids)
      .execute();
    expect(rows).toHaveLength(ids.length);
    let shownCompleted = 0n;
    let chainPaid = 0n;
    for (const r of rows) {
      const want = expected.get(r.id) as Expected;
      expect([r.address, toUnits(qty(r.amount))]).toEqual([want.address, want.units]);
      const script = Buffer.from(bitcoinAddress.toOutputScript(r.address, net));
      const paid = txs.flatMap((tx) =>
        tx.outs.filter((o) => script.equals(Buffer.from(o.script))).map((o) => ({ txid: tx.getId(), o })),
      );
      chainPaid += paid.reduce((s, p) => s + p.o.value, 0n);
      const mine = attempts.filter((a) => a.transfer_id === r.id);
      // each attempt was signed once, and the signer's transaction is the stored one
      for (const a of mine) {
        if (a.txid) expect(journal.get(a.request_id)).toEqual([a.txid]);
      }
      if (r.status === 'COMPLETED') {
        shownCompleted += want.units;
        expect(paid.map((p) => [p.txid, p.o.value])).toEqual([[r.txid, want.units]]);
        expect(mine.filter((a) => a.status === 'CONFIRMED').map((a) => a.txid)).toEqual([r.txid]);
      } else {
        expect([r.id, r.status, paid]).toEqual([r.id, 'REJECTED', []]);
      }
    }
    expect(chainPaid).toBe(shownCompleted);
    await expectOutputsAndLedger(dbh.db, txs);
  } finally {
    await dbh.close();
  }
}

type StoreDb = Awaited<ReturnType<typeof openStore>>['db'];

/**
 * No output is spent twice on the chain; the outputs the database holds unspent are exactly the node's at the
 * platform's addresses; the ledger's BTC holdings (minus chain:BTC) are their sum; nothing is left pending; each
 * member holds what was credited less what was paid out; the ledger check is clean.
 */
async function expectOutputsAndLedger(
  db: StoreDb,
  txs: Awaited<ReturnType<typeof chainTransactions>>,
): Promise<void> {
  const spent = txs.flatMap((tx) =>
    tx.ins.map((i) => `${Buffer.from(i.hash).reverse().toString('hex')}:${i.index}`),
  );
  expect(new Set(spent).size).toBe(spent.length);

  const ours = await unspentOutputs(db, 'BTC');
  expect(ours.every((o) => o.confirmed && o.reservedBy === null)).toBe(true);
  const wallets = await db.selectFrom('wallets').select('address').where('coin', '=', 'BTC').execute();
  const changeKeys = Math.max(64, ...ours.map((o) => Number(o.path.split('/')[1]) + 10));
  const onNode = await platformUtxos(
    wallets.map((w) => w.address),
    changeKeys,
  );
  expect(new Map(ours.map((o) => [`${o.txid}:${o.vout}`, o.units]))).toEqual(onNode);
  const held = [...onNode.values()].reduce((s, v) => s + v, 0n);
  expect(-(await balanceOf(db, account.chain('BTC')))).toBe(held);
  expect(await balanceOf(db, account.withdrawalPending('BTC'))).toBe(0n);

  const paidBy = new Map<number, bigint>();
  const done = await db
    .selectFrom('transfers')
    .select(['member_id', 'amount'])
    .where('type', '=', 'WITHDRAW')
    .where('status', '=', 'COMPLETED')
    .execute();
  for (const d of done) paidBy.set(d.member_id, (paidBy.get(d.member_id) ?? 0n) + toUnits(qty(d.amount)));
  for (const m of members) {
    expect(await balanceOf(db, account.available(m.id, 'BTC'))).toBe(m.credited - (paidBy.get(m.id) ?? 0n));
  }
  expect((await checkLedger(db)).problems).toEqual([]);
}
