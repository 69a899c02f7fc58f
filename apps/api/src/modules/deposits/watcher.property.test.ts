import { fromUnits, toUnits } from '@p2p/contract';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeChain, type FakePayment, randomTxid } from '../../../test/fake-chain.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { chainUnitsToLedger } from '../../chains/units.ts';
import { entryRef } from '../../ledger/entries.ts';
import { checkLedger } from '../../ledger/index.ts';
import { available, type Depositor, depositor } from './test-kit.ts';
import { DepositWatcher } from './watcher.ts';

/**
 * DECISIONS §17, as a property: whatever sequence of blocks, reorgs (shallow and deeper than the confirmations),
 * node failures, restarts (new watcher instances, after a clean stop or a crash whose lease runs out) and
 * concurrent passes of several instances, once the last watcher reached the tip every deposit is credited at
 * most once, exactly the outputs the chain confirmed are credited, nothing under the minimum is, and the ledger
 * check is clean. An in-memory chain (the FakeChain reader) on the real database.
 */

const REQUIRED = 2;
const MIN = toUnits('0.01');
const wei = (eth: string) => toUnits(eth) * 10n ** 10n;

let t: TestApp;
let members: Depositor[];
const STRANGER = '0x000000000000000000000000000000000000dEaD';

beforeAll(async () => {
  t = await createTestApp({}, { startWatchers: false });
  members = [await depositor(t, 'ETH'), await depositor(t, 'ETH'), await depositor(t, 'ETH')];
});
afterAll(() => t.close());

type PaymentSpec = { who: number; size: 'normal' | 'below' | 'dust'; split: boolean; revive: boolean };
type Step =
  | { kind: 'mine'; payments: PaymentSpec[] }
  | { kind: 'reorg'; depth: number; blocks: PaymentSpec[][] }
  | { kind: 'scan'; which: number; passes: number }
  | { kind: 'concurrent' }
  | { kind: 'restart'; crash: boolean }
  | { kind: 'nodeDown' };

const paymentArb: fc.Arbitrary<PaymentSpec> = fc.record({
  who: fc.integer({ min: 0, max: 3 }), // 3 = an address no member owns
  size: fc.constantFrom('normal', 'normal', 'normal', 'below', 'dust'),
  split: fc.boolean(),
  revive: fc.boolean(),
});
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('mine'), payments: fc.array(paymentArb, { maxLength: 3 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('reorg'),
      depth: fc.integer({ min: 1, max: REQUIRED + 2 }),
      blocks: fc.array(fc.array(paymentArb, { maxLength: 2 }), { maxLength: REQUIRED + 3 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('scan'),
      which: fc.nat(3),
      passes: fc.integer({ min: 1, max: 3 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('concurrent') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('restart'), crash: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('nodeDown') }) },
);

/** The payment ids that have been in some chain the node showed with the required confirmations. */
function markConfirmable(chain: FakeChain, confirmable: Set<string>): void {
  for (const { height, payment } of chain.paymentsIn()) {
    if (chain.tip - height + 1 >= REQUIRED) confirmable.add(`${payment.txid}:${payment.outputIndex}`);
  }
}

/** Empties what a run writes; cascade takes the tables that reference transfers (withdrawals, Travel Rule). */
async function resetDatabase(): Promise<void> {
  await sql`truncate chain_unmatched, chain_blocks, chain_watchers, transfers, ledger_postings, ledger_entries,
    ledger_accounts, notifications, member_events cascade`.execute(t.app.deps.db);
}

async function run(steps: Step[]): Promise<void> {
  await resetDatabase();
  const chain = new FakeChain('ETH');
  const make = () =>
    new DepositWatcher({
      db: t.app.deps.db,
      coin: 'ETH',
      reader: chain,
      network: 'mainnet',
      requiredConfirmations: REQUIRED,
      minDeposit: MIN,
      startHeight: 0,
      pollMs: 10,
      timeoutMs: 200,
      leaseMs: 60_000,
      log: t.app.log,
    });
  const watchers: DepositWatcher[] = [make()];
  const confirmable = new Set<string>();
  /** Payments that left the chain in a reorg, which a later block may include again (same txid and output). */
  const orphans = new Map<string, FakePayment>();

  const payments = (specs: PaymentSpec[]): FakePayment[] => {
    const out: FakePayment[] = [];
    const inChain = new Set(chain.paymentsIn().map((p) => `${p.payment.txid}:${p.payment.outputIndex}`));
    for (const s of specs) {
      const orphan = [...orphans.entries()].find(([k]) => !inChain.has(k));
      if (s.revive && orphan) {
        orphans.delete(orphan[0]);
        inChain.add(orphan[0]);
        out.push(orphan[1]);
        continue;
      }
      const to = s.who === 3 ? STRANGER : (members[s.who]?.wallet.address ?? STRANGER);
      const amount = s.size === 'normal' ? wei('1.25') : s.size === 'below' ? wei('0.001') : 5_000n;
      const txid = randomTxid('ETH');
      out.push({ to, amount, txid, outputIndex: 0 });
      if (s.split)
        out.push({ to: members[(s.who + 1) % 3]?.wallet.address ?? STRANGER, amount, txid, outputIndex: 1 });
    }
    return out;
  };

  for (const step of steps) {
    switch (step.kind) {
      case 'mine':
        chain.mine(payments(step.payments));
        break;
      case 'reorg': {
        const fork = Math.max(0, chain.tip - step.depth);
        for (const { payment } of chain.paymentsIn(fork + 1))
          orphans.set(`${payment.txid}:${payment.outputIndex}`, payment);
        chain.reorg(fork, []);
        for (const b of step.blocks) chain.mine(payments(b));
        break;
      }
      case 'scan': {
        const w = watchers[step.which % watchers.length];
        for (let i = 0; i < step.passes; i++) await w?.scan();
        break;
      }
      case 'concurrent':
        await Promise.all(watchers.map((w) => w.scan()));
        break;
      case 'restart': {
        const old = watchers.at(-1);
        if (step.crash) {
          // it stops renewing (its process died): its lease runs out; the instance object is left behind and
          // keeps being scanned as a stale instance would, which must apply nothing
          await sql`update chain_watchers set lease_until = now() - interval '1 second'`.execute(
            t.app.deps.db,
          );
        } else {
          await old?.stop();
        }
        watchers.push(make());
        break;
      }
      case 'nodeDown':
        chain.mode = 'throw';
        await watchers.at(-1)?.scan();
        chain.mode = 'ok';
        break;
    }
    markConfirmable(chain, confirmable);
  }

  // The newest instance takes over (leases of crashed ones ran out) and reaches the tip.
  await sql`update chain_watchers set lease_until = now() - interval '1 second'`.execute(t.app.deps.db);
  const last = make();
  for (let i = 0; i < 20; i++) {
    const r = await last.scan();
    expect(r.error).toBeUndefined();
    if (r.caughtUp) break;
  }
  const cursor = await t.app.deps.db
    .selectFrom('chain_watchers')
    .select(['height', 'hash'])
    .executeTakeFirstOrThrow();
  expect(Number(cursor.height)).toBe(chain.tip);
  await check(chain, confirmable);
  await Promise.all(watchers.map((w) => w.stop()));
  await last.stop();
}

async function check(chain: FakeChain, confirmable: Set<string>): Promise<void> {
  const db = t.app.deps.db;
  const ledger = await checkLedger(db, t.app.deps.invariants);
  expect(ledger.problems).toEqual([]);

  const rows = await db.selectFrom('transfers').selectAll().where('type', '=', 'DEPOSIT').execute();
  const entries = await db.selectFrom('ledger_entries').select(['ref', 'kind']).execute();
  const completed = rows.filter((r) => r.status === 'COMPLETED');
  // credited at most once: one entry per credited output, and no deposit entry without its credited row
  expect(
    entries
      .filter((e) => e.kind === 'deposit')
      .map((e) => e.ref)
      .sort(),
  ).toEqual(
    completed.map((r) => entryRef.depositCredit('ETH', r.txid ?? '', r.chain_index ?? -1).ref).sort(),
  );
  for (const m of members) {
    const sum = completed
      .filter((r) => r.member_id === m.member.id)
      .reduce((a, r) => a + toUnits(r.amount), 0n);
    expect(fromUnits(await available(t, m, 'ETH'))).toBe(fromUnits(sum));
  }

  const tip = chain.tip;
  const where = new Map(chain.paymentsIn().map((p) => [`${p.payment.txid}:${p.payment.outputIndex}`, p]));
  const memberAddresses = new Set(members.map((m) => m.wallet.address));
  for (const r of rows) {
    const key = `${r.txid}:${r.chain_index}`;
    const units = toUnits(r.amount);
    expect(r.member_id).not.toBeNull();
    // only what the chain confirmed at some point was credited, never anything under the minimum
    if (r.status === 'COMPLETED') {
      expect(confirmable.has(key)).toBe(true);
      expect(units >= MIN).toBe(true);
    }
    if (r.status === 'BELOW_MINIMUM') expect(units < MIN).toBe(true);
    const found = where.get(key);
    if (r.status === 'DROPPED') expect(found).toBeUndefined();
    if (found && r.status !== 'COMPLETED') {
      expect(Number(r.block_height)).toBe(found.height);
      expect(r.confirmations).toBe(Math.min(REQUIRED, tip - found.height + 1));
    }
    // out of the chain and not yet dropped: only while the new chain has not passed fork + required
    if (!found && (r.status === 'PENDING' || r.status === 'BELOW_MINIMUM')) {
      expect(r.block_height).toBeNull();
      expect(r.confirmations).toBe(0);
      expect(tip).toBeLessThan(Number(r.fork_height) + REQUIRED);
    }
  }
  // every output to a member the final chain confirms is recorded, and credited unless under the minimum
  const byKey = new Map(rows.map((r) => [`${r.txid}:${r.chain_index}`, r]));
  for (const [key, { height, payment }] of where) {
    if (!memberAddresses.has(payment.to) || chainUnitsToLedger('ETH', payment.amount) === 0n) {
      expect(byKey.has(key)).toBe(false);
      continue;
    }
    const r = byKey.get(key);
    expect(r).toBeDefined();
    if (tip - height + 1 >= REQUIRED) {
      expect(r?.status).toBe(
        chainUnitsToLedger('ETH', payment.amount) >= MIN ? 'COMPLETED' : 'BELOW_MINIMUM',
      );
    } else {
      expect(r?.status).toMatch(/^(PENDING|BELOW_MINIMUM|COMPLETED)$/);
    }
  }
}

/**
 * Counterexamples fast-check found, run first every time (PROP_RUNS=<n> runs more random cases than 100). A reorg that shortened the chain left the deposits at
 * the fork with the confirmations they had on the longer chain ("2" on a chain where they had 1) until the next
 * block: the rewind now counts them again from the fork.
 */
const FOUND: Step[][] = [
  [
    { kind: 'restart', crash: false },
    { kind: 'scan', which: 1, passes: 3 },
    {
      kind: 'reorg',
      depth: 3,
      blocks: [
        [],
        [
          { who: 1, size: 'below', split: true, revive: false },
          { who: 1, size: 'below', split: true, revive: true },
        ],
        [
          { who: 3, size: 'normal', split: false, revive: true },
          { who: 1, size: 'normal', split: true, revive: true },
        ],
        [{ who: 0, size: 'dust', split: false, revive: true }],
      ],
    },
    { kind: 'concurrent' },
    { kind: 'mine', payments: [{ who: 3, size: 'normal', split: true, revive: false }] },
    { kind: 'reorg', depth: 3, blocks: [] },
    { kind: 'restart', crash: false },
    { kind: 'scan', which: 0, passes: 3 },
    { kind: 'scan', which: 1, passes: 2 },
  ],
];

const RUNS = Number(process.env.PROP_RUNS ?? 100);

describe('the deposit watcher, as a property', () => {
  it(
    'credits every deposit at most once, exactly what the chain confirmed, and keeps the ledger clean',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 30 }), (steps) => run(steps)),
        { numRuns: RUNS, endOnFailure: true, examples: FOUND.map((steps) => [steps]) },
      );
    },
    // A hundred runs take ~20 s alone; a CI box shared with other jobs has taken three times that.
    Math.max(180_000, RUNS * 1_500),
  );
});
