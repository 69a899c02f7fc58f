import { randomUUID } from 'node:crypto';
import { toUnits } from '@p2p/contract';
import { inTx } from '../../db/tx.ts';
import { type PayoutContext, PayoutLeaseLost, prepareAttempt, settle, signAndSend } from './pipeline.ts';
import {
  acquirePayoutLease,
  autoApprove,
  dueApproved,
  openAttempts,
  recordPayoutError,
  releasePayoutLease,
} from './repo.ts';
import { describeError } from './signer.ts';

/** Work a payer may need done besides paying (ETH: sweeping deposit addresses to the hot address). */
export type Housekeeping = (ctx: PayoutContext) => Promise<void>;

/** One coin's worker settings (DECISIONS §18). */
export interface WorkerOptions extends Omit<PayoutContext, 'holder'> {
  /** WITHDRAW_AUTO_MAX_<COIN>, a decimal coin amount (0 = never by itself). */
  autoMax: string;
  pollMs: number;
  leaseMs: number;
  /** Withdrawals prepared per pass. Default 50. */
  batch?: number;
  housekeeping?: Housekeeping;
}

/** What one pass did. */
export interface PassResult {
  active: boolean;
  sent: number;
  error?: string;
}

/**
 * The payout worker of one coin (DECISIONS §18): every API instance runs one per coin with a node and a
 * signer; the one holding the coin's lease (payout_workers, also checked in every prepare's transaction) pays.
 * A pass: approve by itself what is at most WITHDRAW_AUTO_MAX_<COIN>, the payer's housekeeping (sweeps),
 * resume attempts a crash or a silent signer left unsigned, settle sent ones (complete / fail / send again),
 * then prepare, sign and send the APPROVED withdrawals one after the other (one at a time, so a signer refusal
 * can give its nonce back). Nothing throws out of the loop; failures are logged and stored.
 */
export class PayoutWorker {
  readonly holder = randomUUID();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = false;
  private active = false;
  private readonly ctx: PayoutContext;

  constructor(private readonly o: WorkerOptions) {
    this.ctx = { ...o, holder: this.holder };
  }

  get coin() {
    return this.o.coin;
  }

  /** Starts the passes (the first at once). */
  start(): void {
    if (this.stopped || this.timer || this.running) return;
    this.schedule(0);
  }

  /** Stops, waits for the pass in flight and gives the lease up. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
    if (this.active) await releasePayoutLease(this.o.db, this.o.coin, this.holder).catch(() => undefined);
    this.active = false;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const pass = this.pass();
      this.running = pass;
      void pass.then((r) => {
        this.running = null;
        this.schedule(r.active && r.sent > 0 ? 0 : this.o.pollMs);
      });
    }, ms);
    this.timer.unref();
  }

  /** One pass (tests call it directly). Never throws. */
  async pass(): Promise<PassResult> {
    if (this.stopped) return { active: false, sent: 0 };
    try {
      this.active = await acquirePayoutLease(this.o.db, this.o.coin, this.holder, this.o.leaseMs);
    } catch (err) {
      this.o.log.warn({ err, coin: this.o.coin }, 'payout worker: lease check failed (database)');
      return { active: false, sent: 0, error: 'database unavailable' };
    }
    if (!this.active) return { active: false, sent: 0 };
    try {
      const sent = await this.work();
      await recordPayoutError(this.o.db, this.o.coin, null);
      return { active: true, sent };
    } catch (err) {
      if (err instanceof PayoutLeaseLost) {
        this.active = false;
        return { active: false, sent: 0 };
      }
      const message = describeError(err);
      this.o.log.warn({ coin: this.o.coin, error: message }, 'payout worker: pass failed');
      await recordPayoutError(this.o.db, this.o.coin, message).catch(() => undefined);
      return { active: true, sent: 0, error: message };
    }
  }

  private async work(): Promise<number> {
    const ctx = this.ctx;
    if (toUnits(this.o.autoMax) > 0n) {
      const approved = await inTx(ctx.db, (tx) => autoApprove(tx, ctx.coin, this.o.autoMax));
      if (approved.length > 0) ctx.log.info({ coin: ctx.coin, approved }, 'payout: approved by itself');
    }
    if (this.o.housekeeping) await this.o.housekeeping(ctx);
    for (const a of await openAttempts(ctx.db, ctx.coin, 'PREPARED', 100)) await signAndSend(ctx, a);
    for (const a of await openAttempts(ctx.db, ctx.coin, 'BROADCAST', 500)) {
      if (this.stopped) return 0;
      await settle(ctx, a).catch((err: unknown) =>
        ctx.log.warn(
          { coin: ctx.coin, withdrawalId: a.transfer_id, error: describeError(err) },
          'payout: settle failed',
        ),
      );
    }
    let sent = 0;
    for (const id of await dueApproved(ctx.db, ctx.coin, this.o.batch ?? 50)) {
      if (this.stopped) break;
      const a = await prepareAttempt(ctx, id);
      if (a && (await signAndSend(ctx, a))?.status === 'BROADCAST') sent++;
    }
    return sent;
  }
}
