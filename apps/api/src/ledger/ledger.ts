import { type Coin, fromUnits, toSignedUnits } from '@p2p/contract';
import type { DbOrTx, Tx } from '../db/client.ts';
import { AppError, pgCode, pgConstraint } from '../errors/index.ts';
import { type AccountRef, accountKey, ensureAccount } from './accounts.ts';
import type { EntryKind } from './entries.ts';

/** One side of a ledger entry: `amount` in base units (1e-8 coin); positive raises the balance. */
export interface PostingInput {
  account: AccountRef;
  amount: bigint;
}

export interface EntryInput {
  /**
   * Unique per movement (order id, transfer id, chain txid...): a second post of the same movement under the
   * same ref does nothing; the same ref with another kind or other postings throws LedgerRefConflictError.
   */
  ref: string;
  /** One of the catalogue's kinds (entries.ts); entries are built by `movements.ts`. */
  kind: EntryKind;
  memo?: string;
  postings: PostingInput[];
}

export interface PostResult {
  entryId: number;
  /** False when an entry with this ref already existed; nothing was moved. */
  created: boolean;
}

/** Throws unless the postings are non-empty, non-zero and sum to zero per coin. */
export function assertBalanced(postings: PostingInput[]): void {
  if (postings.length < 2) throw new Error('ledger entry needs at least two postings');
  const sums = new Map<Coin, bigint>();
  for (const p of postings) {
    if (p.amount === 0n) throw new Error('ledger posting of zero');
    sums.set(p.account.coin, (sums.get(p.account.coin) ?? 0n) + p.amount);
  }
  for (const [coin, sum] of sums) {
    if (sum !== 0n) throw new Error(`ledger entry unbalanced in ${coin}: ${fromUnits(sum)}`);
  }
}

/**
 * Posts one balanced entry inside the caller's transaction (DECISIONS §4): records the entry under its
 * unique ref, writes the postings and moves the account balances. A member account that would go below
 * zero makes the database refuse the update, surfaced as AppError INSUFFICIENT_BALANCE (the caller's
 * transaction is then rolled back whole). A retry with the same ref and the same postings returns
 * `created: false`; the same ref with another kind or other postings throws LedgerRefConflictError.
 */
export async function post(tx: Tx, entry: EntryInput): Promise<PostResult> {
  assertBalanced(entry.postings);
  // Net the postings per account, then touch accounts in id order so concurrent entries never deadlock.
  const net = new Map<string, { ref: AccountRef; amount: bigint }>();
  for (const p of entry.postings) {
    const key = accountKey(p.account);
    const cur = net.get(key);
    net.set(key, { ref: p.account, amount: (cur?.amount ?? 0n) + p.amount });
  }
  if ([...net.values()].every((n) => n.amount === 0n)) throw new Error('ledger entry moves nothing');
  const inserted = await tx
    .insertInto('ledger_entries')
    .values({ ref: entry.ref, kind: entry.kind, memo: entry.memo ?? null })
    .onConflict((oc) => oc.column('ref').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return { entryId: await assertSameReplay(tx, entry, net), created: false };

  const moves: { id: number; coin: Coin; amount: bigint }[] = [];
  for (const { ref, amount } of net.values()) {
    if (amount !== 0n) moves.push({ id: await ensureAccount(tx, ref), coin: ref.coin, amount });
  }
  moves.sort((a, b) => a.id - b.id);

  for (const m of moves) {
    try {
      await tx
        .updateTable('ledger_accounts')
        .set((eb) => ({ balance: eb('balance', '+', fromUnits(m.amount)) }))
        .where('id', '=', m.id)
        .execute();
    } catch (err) {
      if (pgCode(err) === '23514' && pgConstraint(err) !== 'ledger_accounts_owner') {
        throw new AppError('INSUFFICIENT_BALANCE');
      }
      throw err;
    }
  }
  // One posting per account with its net amount: still zero per coin, and each account's balance
  // stays equal to the sum of its postings (the invariant checkLedger verifies).
  await tx
    .insertInto('ledger_postings')
    .values(
      moves.map((m) => ({
        entry_id: inserted.id,
        account_id: m.id,
        coin: m.coin,
        amount: fromUnits(m.amount),
      })),
    )
    .execute();
  return { entryId: inserted.id, created: true };
}

/** A ref posted again with another kind or other postings: a bug in the poster, never a retry (DESIGN "Retries"). */
export class LedgerRefConflictError extends Error {
  constructor(readonly ref: string) {
    super(`ledger ref ${ref} was already posted with other postings`);
    this.name = 'LedgerRefConflictError';
  }
}

/**
 * The id of the entry already posted under `entry.ref`, after checking that it has the same kind and the
 * same net postings as `net`; throws LedgerRefConflictError otherwise, so that a replay is harmless only when
 * it is the same movement.
 */
async function assertSameReplay(
  tx: Tx,
  entry: EntryInput,
  net: Map<string, { ref: AccountRef; amount: bigint }>,
): Promise<number> {
  const existing = await tx
    .selectFrom('ledger_entries')
    .select(['id', 'kind'])
    .where('ref', '=', entry.ref)
    .executeTakeFirstOrThrow();
  const stored = await tx
    .selectFrom('ledger_postings as p')
    .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
    .select(['a.member_id', 'a.coin', 'a.kind', 'p.amount'])
    .where('p.entry_id', '=', existing.id)
    .execute();
  const key = (memberId: number | null, coin: string, kind: string) => `${memberId ?? '-'}:${coin}:${kind}`;
  const want = new Map<string, bigint>();
  for (const n of net.values()) {
    if (n.amount !== 0n) want.set(key(n.ref.memberId, n.ref.coin, n.ref.kind), n.amount);
  }
  const same =
    existing.kind === entry.kind &&
    stored.length === want.size &&
    stored.every((p) => want.get(key(p.member_id, p.coin, p.kind)) === toSignedUnits(p.amount));
  if (!same) throw new LedgerRefConflictError(entry.ref);
  return existing.id;
}

/** Balance of one account in base units (0 when the account does not exist yet). */
export async function balanceOf(db: DbOrTx, ref: AccountRef): Promise<bigint> {
  const q = db
    .selectFrom('ledger_accounts')
    .select('balance')
    .where('coin', '=', ref.coin)
    .where('kind', '=', ref.kind);
  const row = await (ref.memberId === null
    ? q.where('member_id', 'is', null)
    : q.where('member_id', '=', ref.memberId)
  ).executeTakeFirst();
  return row ? toSignedUnits(row.balance) : 0n;
}
