import { randomUUID } from 'node:crypto';
import { type Coin, fromUnits, toUnits } from '@p2p/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { ChainNetwork } from '../../chains/index.ts';
import type { ChainReader } from '../../chains/reader.ts';
import { chainUnitsToLedger } from '../../chains/units.ts';
import type { Db, Tx } from '../../db/client.ts';
import { qty } from '../../db/numeric.ts';
import { inTx } from '../../db/tx.ts';
import {
  recordSeenDeposit,
  rewindChainDeposits,
  settleChainDeposits,
  walletsByAddresses,
  walletsByDestinationTags,
} from '../wallets/index.ts';
import {
  type CheckedBlock,
  type CheckedPayment,
  canonicalHash,
  checkBlock,
  MalformedBlockError,
} from './block-check.ts';
import {
  acquireLease,
  blocksFrom,
  type Cursor,
  deleteBlocksAbove,
  forgetUnmatchedAbove,
  insertBlock,
  insertUnmatched,
  loadCursor,
  moveCursor,
  pruneBlocksBelow,
  recordNodeTip,
  recordWatcherError,
  releaseLease,
} from './repo.ts';

/** Everything one coin's watcher needs (DECISIONS §17); the times are milliseconds. */
export interface WatcherOptions {
  db: Db;
  coin: Coin;
  reader: ChainReader;
  /** The app's network: payments' recipients are checked against its address formats. */
  network: ChainNetwork;
  requiredConfirmations: number;
  /** DEPOSIT_MIN_<COIN> in ledger base units (10^-8 coin): smaller deposits are BELOW_MINIMUM. */
  minDeposit: bigint;
  /** Where the coin's first scan begins; default the node's tip less the required confirmations. */
  startHeight?: number;
  /**
   * The platform's own receiving address for coins paid by destination tag (XRP_DEPOSIT_ACCOUNT): a payment to it
   * is matched to a wallet by its tag, and recorded as unmatched when the tag is missing or unknown.
   */
  taggedAccount?: string;
  pollMs: number;
  /** Per node call: a node that takes longer counts as failed. */
  timeoutMs: number;
  leaseMs: number;
  log: FastifyBaseLogger;
  /** Blocks applied per scan before the loop yields (and renews its lease outside a block). Default 100. */
  maxBlocksPerScan?: number;
  /** Applied blocks kept for finding a fork. Default max(200, 3 × required + 10). */
  keepBlocks?: number;
  /**
   * Longest back-off after failures. Default 60 s, or half the lease when that is shorter: the holder keeps
   * renewing while its node is down, so the lease does not wander between instances that all fail alike.
   */
  maxBackoffMs?: number;
}

/** What one pass did: whether this instance is the active watcher, blocks applied, whether it reached the tip. */
export interface ScanResult {
  active: boolean;
  applied: number;
  caughtUp: boolean;
  error?: string;
}

/** The lease was taken over between two blocks: this instance stops writing until it gets it back. */
class LeaseLostError extends Error {
  constructor() {
    super('watcher lease lost to another instance');
    this.name = 'LeaseLostError';
  }
}

/** A node call that failed, timed out or answered something unusable. */
class NodeCallError extends Error {
  constructor(what: string, cause: unknown) {
    super(`${what}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'NodeCallError';
  }
}

/** The watcher was asked to stop while a node call was in flight. */
class StoppedError extends Error {}

/**
 * Credentials a node URL may carry (user:password@) never reach the log or the status page, and an error text is
 * bounded.
 */
export function redactNodeError(message: string): string {
  return message.replace(/\/\/[^/\s@]*@/g, '//[redacted]@').slice(0, 500);
}

/**
 * The deposit watcher of one coin (DECISIONS §17). Every API instance runs one per configured coin; the one
 * holding the coin's lease (chain_watchers, renewed in every block's transaction) is active and the others retry
 * the lease each poll, so a crashed holder is replaced once its lease runs out. The active one reads every new
 * block from the node, checks it (block-check.ts), and applies it in ONE transaction: cursor compare-and-set,
 * the block's hash, the deposits to member addresses (PENDING with confirmations, BELOW_MINIMUM under the
 * minimum), XRP payments without a known tag as unmatched, the credits that reached their count (ledger, same
 * transaction) and the drops. A parent hash that differs from the stored one is a reorg: it walks back to the
 * highest height where node and store agree, rewinds there in one transaction (deposits above lose their block
 * and wait to be seen again or dropped), and goes on. Node calls time out; failures back off (poll × 2^n up to
 * a minute), are logged and stored for the status page; a malformed block is refused and retried, a malformed
 * payment skipped and logged. Nothing here throws out of the loop.
 */
export class DepositWatcher {
  readonly holder = randomUUID();
  private readonly o: Required<Omit<WatcherOptions, 'startHeight' | 'taggedAccount'>> &
    Pick<WatcherOptions, 'startHeight' | 'taggedAccount'>;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = false;
  private stopNow: () => void = () => undefined;
  private readonly stopSignal: Promise<never>;
  private failures = 0;
  private active = false;

  constructor(opts: WatcherOptions) {
    this.o = {
      maxBlocksPerScan: 100,
      keepBlocks: Math.max(200, 3 * opts.requiredConfirmations + 10),
      maxBackoffMs: Math.max(opts.pollMs, Math.min(60_000, Math.floor(opts.leaseMs / 2))),
      ...opts,
    };
    this.stopSignal = new Promise<never>((_, reject) => {
      this.stopNow = () => reject(new StoppedError('stopped'));
    });
    this.stopSignal.catch(() => undefined);
  }

  get coin(): Coin {
    return this.o.coin;
  }

  /** Whether this instance held the lease at its last pass. */
  get isActive(): boolean {
    return this.active;
  }

  /** Starts polling (the first pass at once). */
  start(): void {
    if (this.stopped || this.timer || this.running) return;
    this.schedule(0);
  }

  /** Stops polling, waits for the pass in flight (a node call in flight is abandoned) and gives the lease up. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopNow();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
    if (this.active) {
      await releaseLease(this.o.db, this.o.coin, this.holder).catch((err) =>
        this.o.log.warn({ err, coin: this.o.coin }, 'chain watcher: lease release failed'),
      );
      this.active = false;
    }
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const pass = this.scan();
      this.running = pass;
      void pass.then((r) => {
        this.running = null;
        this.schedule(this.nextDelay(r));
      });
    }, ms);
    this.timer.unref();
  }

  private nextDelay(r: ScanResult): number {
    if (r.error) return Math.min(this.o.pollMs * 2 ** Math.min(this.failures, 16), this.o.maxBackoffMs);
    return r.active && !r.caughtUp ? 0 : this.o.pollMs;
  }

  /**
   * One pass (tests call it directly): takes or renews the lease; when held, applies up to maxBlocksPerScan new
   * blocks. Never throws: a failure is logged, stored and answered in `error`.
   */
  async scan(): Promise<ScanResult> {
    if (this.stopped) return { active: false, applied: 0, caughtUp: false };
    try {
      this.active = await acquireLease(this.o.db, this.o.coin, this.holder, this.o.leaseMs);
    } catch (err) {
      this.failures++;
      this.o.log.warn({ err, coin: this.o.coin }, 'chain watcher: lease check failed (database)');
      return { active: false, applied: 0, caughtUp: false, error: 'database unavailable' };
    }
    if (!this.active) return { active: false, applied: 0, caughtUp: false };
    let applied = 0;
    try {
      const tip = await this.nodeHeight();
      await recordNodeTip(this.o.db, this.o.coin, this.holder, tip);
      let cursor = (await loadCursor(this.o.db, this.o.coin)) ?? (await this.startCursor(tip));
      cursor = await this.checkCursor(cursor);
      let rewinds = 0;
      while (cursor.height < tip && applied < this.o.maxBlocksPerScan && !this.stopped) {
        const height = cursor.height + 1;
        const raw = await this.node(`block ${height}`, () => this.o.reader.block(height));
        const { block, skipped } = checkBlock(this.o.coin, this.o.network, raw, height);
        if (skipped.length > 0) {
          this.o.log.warn(
            { coin: this.o.coin, height, skipped },
            'chain watcher: malformed payments skipped',
          );
        }
        if (cursor.hash !== null && block.parentHash !== cursor.hash) {
          // The block at cursor.height is no longer the parent: the chain reorganized (or is reorganizing).
          if (++rewinds > 3)
            throw new MalformedBlockError(`block ${height}: parent keeps differing from the chain`);
          cursor = await this.rewind(cursor);
          continue;
        }
        cursor = await this.apply(block, cursor);
        applied++;
      }
      this.failures = 0;
      return { active: true, applied, caughtUp: cursor.height >= tip };
    } catch (err) {
      if (err instanceof StoppedError) return { active: this.active, applied, caughtUp: false };
      if (err instanceof LeaseLostError) {
        this.active = false;
        this.o.log.info({ coin: this.o.coin }, 'chain watcher: lease lost; another instance watches');
        return { active: false, applied, caughtUp: false };
      }
      return { active: true, applied, caughtUp: false, error: await this.fail(err) };
    }
  }

  private async fail(err: unknown): Promise<string> {
    this.failures++;
    const nodeDown = err instanceof NodeCallError;
    const message = redactNodeError(err instanceof Error ? err.message : String(err));
    this.o.log.warn(
      { coin: this.o.coin, failures: this.failures, error: message },
      nodeDown ? 'chain watcher: node call failed; backing off' : 'chain watcher: scan failed; backing off',
    );
    await recordWatcherError(this.o.db, this.o.coin, this.holder, message, nodeDown).catch((e) =>
      this.o.log.warn({ err: e, coin: this.o.coin }, 'chain watcher: could not store its error'),
    );
    return message;
  }

  /** A node call bounded by the timeout and by stop(); any failure becomes NodeCallError. */
  private async node<T>(what: string, call: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${this.o.timeoutMs} ms`)),
        this.o.timeoutMs,
      );
    });
    try {
      return await Promise.race([call(), timeout, this.stopSignal]);
    } catch (err) {
      if (err instanceof StoppedError) throw err;
      throw new NodeCallError(what, err);
    } finally {
      clearTimeout(timer);
    }
  }

  private async nodeHeight(): Promise<number> {
    const tip = await this.node('tip height', () => this.o.reader.tipHeight());
    if (!Number.isSafeInteger(tip) || tip < 0)
      throw new MalformedBlockError(`tip height ${String(tip)} is not a height`);
    return tip;
  }

  private async nodeHash(height: number): Promise<string | null> {
    const h = await this.node(`block hash ${height}`, () => this.o.reader.blockHash(height));
    if (h === null) return null;
    const hash = canonicalHash(h);
    if (!hash) throw new MalformedBlockError(`block hash ${height}: malformed`);
    return hash;
  }

  /** The first pass ever for this coin: the cursor goes just below the start height (with that block's hash). */
  private async startCursor(tip: number): Promise<Cursor> {
    const start = this.o.startHeight ?? Math.max(0, tip - this.o.requiredConfirmations);
    const below = start - 1;
    const hash = below >= 0 ? await this.nodeHash(below) : null;
    if (below >= 0 && hash === null) throw new MalformedBlockError(`block ${below} is above the node's tip`);
    const to: Cursor = { height: below, hash };
    await inTx(this.o.db, async (tx) => {
      if (!(await moveCursor(tx, this.o.coin, this.holder, this.o.leaseMs, null, to)))
        throw new LeaseLostError();
      if (hash !== null) await insertBlock(tx, this.o.coin, { height: below, hash, parentHash: null });
    });
    this.o.log.info({ coin: this.o.coin, startHeight: start }, 'chain watcher: first scan starts');
    return to;
  }

  /** Rewinds when the node's block at the cursor height is no longer the one applied there. */
  private async checkCursor(cursor: Cursor): Promise<Cursor> {
    if (cursor.hash === null) return cursor;
    const nodeHash = await this.nodeHash(cursor.height);
    return nodeHash === cursor.hash ? cursor : this.rewind(cursor);
  }

  /**
   * Finds the fork (the highest stored height whose hash the node still has) and rewinds there in one
   * transaction. A fork below the stored window cannot be placed: the watcher stops and says so (an operator
   * decides; see docs/operations.md).
   */
  private async rewind(cursor: Cursor): Promise<Cursor> {
    const stored = await blocksFrom(this.o.db, this.o.coin, cursor.height, this.o.keepBlocks);
    let fork: Cursor | null = null;
    for (const b of stored) {
      if ((await this.nodeHash(b.height)) === b.hash) {
        fork = { height: b.height, hash: b.hash };
        break;
      }
    }
    if (!fork) {
      throw new MalformedBlockError(
        `reorg deeper than the ${stored.length} blocks kept below height ${cursor.height}: not rewinding`,
      );
    }
    const to = fork;
    const outcome = await inTx(this.o.db, async (tx) => {
      if (!(await moveCursor(tx, this.o.coin, this.holder, this.o.leaseMs, cursor, to)))
        throw new LeaseLostError();
      await deleteBlocksAbove(tx, this.o.coin, to.height);
      const deposits = await rewindChainDeposits(tx, this.o.coin, to.height);
      const unmatchedDecided = await forgetUnmatchedAbove(tx, this.o.coin, to.height);
      return { ...deposits, unmatchedDecided };
    });
    this.o.log.warn(
      { coin: this.o.coin, from: cursor.height, fork: to.height, unconfirmed: outcome.unconfirmed },
      'chain watcher: reorg; rewound to the fork',
    );
    const deep = outcome.creditedRemoved.map((t) => `deposit ${t.id}`);
    deep.push(...outcome.unmatchedDecided.map((u) => `unmatched payment ${u.id}`));
    if (deep.length > 0) {
      const message = `reorg at ${to.height} removed the blocks of credited ${deep.join(', ')}: check them on chain`;
      this.o.log.error({ coin: this.o.coin, fork: to.height }, `chain watcher: ${message}`);
      await recordWatcherError(this.o.db, this.o.coin, this.holder, message, false);
    }
    return to;
  }

  /** Applies one checked block on top of `cursor` in one transaction; answers the new cursor. */
  private async apply(block: CheckedBlock, cursor: Cursor): Promise<Cursor> {
    const to: Cursor = { height: block.height, hash: block.hash };
    const o = this.o;
    const result = await inTx(o.db, async (tx) => {
      if (!(await moveCursor(tx, o.coin, this.holder, o.leaseMs, cursor, to))) throw new LeaseLostError();
      await insertBlock(tx, o.coin, block);
      await pruneBlocksBelow(tx, o.coin, block.height - o.keepBlocks);
      const conflicts = await this.recordPayments(tx, block);
      const settled = await settleChainDeposits(tx, o.coin, block.height);
      return { ...settled, conflicts };
    });
    for (const c of result.conflicts)
      o.log.warn(
        { coin: o.coin, height: block.height, ...c },
        'chain watcher: output recorded differently before; left as it was',
      );
    if (result.credited.length > 0 || result.dropped.length > 0) {
      o.log.info(
        {
          coin: o.coin,
          height: block.height,
          credited: result.credited.map((t) => t.id),
          dropped: result.dropped,
        },
        'chain watcher: deposits settled',
      );
    }
    return to;
  }

  /**
   * Records the block's payments to members (by address, or by tag on the tagged account) and the tagged account's
   * payments that match no wallet. Answers the outputs left alone because another row owns them differently.
   */
  private async recordPayments(tx: Tx, block: CheckedBlock): Promise<Record<string, unknown>[]> {
    const o = this.o;
    const tagged = o.taggedAccount;
    const byTag = block.payments.filter((p) => tagged !== undefined && p.to === tagged);
    const byAddress = block.payments.filter((p) => tagged === undefined || p.to !== tagged);
    if (byTag.length === 0 && byAddress.length === 0) return [];
    const wallets = await walletsByAddresses(tx, o.coin, [...new Set(byAddress.map((p) => p.to))]);
    const walletOf = new Map(wallets.map((w) => [w.address, w]));
    const tags = byTag.map((p) => p.destinationTag).filter((t): t is number => t !== null);
    const tagWallets = tags.length > 0 ? await walletsByDestinationTags(tx, o.coin, [...new Set(tags)]) : [];
    const walletOfTag = new Map(tagWallets.map((w) => [w.destinationTag, w.wallet]));

    const conflicts: Record<string, unknown>[] = [];
    const record = async (p: CheckedPayment, w: (typeof wallets)[number]) => {
      const units = chainUnitsToLedger(o.coin, p.amount);
      // Less than the ledger's 10^-8 (wei dust): nothing a member could be credited.
      if (units === 0n) return;
      const outcome = await recordSeenDeposit(tx, w, {
        coin: o.coin,
        txid: p.txid,
        index: p.outputIndex,
        amount: fromUnits(units),
        chainAmount: p.amount.toString(),
        blockHeight: block.height,
        blockHash: block.hash,
        requiredConfirmations: o.requiredConfirmations,
        belowMinimum: units < o.minDeposit,
      });
      const existing = outcome.row === null ? outcome.existing : undefined;
      if (existing && (existing.wallet_id !== w.id || toUnits(qty(existing.amount)) !== units)) {
        conflicts.push({ txid: p.txid, outputIndex: p.outputIndex, transferId: existing.id });
      }
    };
    for (const p of byAddress) {
      const w = walletOf.get(p.to);
      if (w) await record(p, w);
    }
    for (const p of byTag) {
      const w = p.destinationTag === null ? undefined : walletOfTag.get(p.destinationTag);
      if (w) {
        await record(p, w);
        continue;
      }
      const units = chainUnitsToLedger(o.coin, p.amount);
      if (units === 0n) continue;
      await insertUnmatched(tx, {
        coin: o.coin,
        txid: p.txid,
        outputIndex: p.outputIndex,
        address: p.to,
        destinationTag: p.destinationTag,
        amount: fromUnits(units),
        chainAmount: p.amount.toString(),
        blockHeight: block.height,
      });
    }
    return conflicts;
  }
}
