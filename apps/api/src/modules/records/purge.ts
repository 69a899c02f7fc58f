import { randomBytes, randomUUID } from 'node:crypto';
import { LOGIN_HISTORY_DAYS } from '@p2p/contract';
import type { Db } from '../../db/client.ts';
import { inTx } from '../../db/tx.ts';
import { everyInterval } from '../../interval-job.ts';
import { purgeBankOf } from '../bank/index.ts';
import { deleteBlocksOf } from '../blocks/index.ts';
import { purgeMessagesOf } from '../chat/index.ts';
import {
  closedMembersDue,
  hashPassword,
  pruneLoginAttempts,
  pruneRefreshTokens,
  pruneSmsCodes,
  purgeMemberIdentity,
} from '../identity/index.ts';
import { purgeKycOf } from '../kyc/index.ts';
import { purgeListingAccountsOf } from '../listings/index.ts';
import { purgeNotificationsOf } from '../notifications/index.ts';
import { purgeTravelRulesOf } from '../wallets/index.ts';
import { acquireJobLease, markJobRun, releaseJobLease } from './repo.ts';

/** The lease's name in job_leases. */
export const RETENTION_JOB = 'retention-purge';

/**
 * Days SMS codes are kept (issue 27): the hourly sending budgets need one hour; a month leaves abuse reports
 * time to be looked into. Refresh tokens are kept as long past their expiry.
 */
export const SMS_CODES_KEEP_DAYS = 30;
export const REFRESH_TOKENS_KEEP_DAYS = 30;

export interface RetentionRules {
  /** RETENTION_YEARS: how long a closed membership's records are kept (DECISIONS §19). */
  years: number;
  /** Closed memberships purged per run (the next tick takes the rest). */
  batch: number;
  /** Login attempts older than 90 days deleted per run; as many old SMS codes and refresh tokens. */
  loginBatch: number;
}

export interface PurgeOutcome {
  purged: number;
  loginsPruned: number;
  /** SMS codes older than SMS_CODES_KEEP_DAYS deleted (up to `loginBatch` a run). */
  smsCodesPruned: number;
  /** Refresh tokens expired more than REFRESH_TOKENS_KEEP_DAYS ago deleted (up to `loginBatch` a run). */
  refreshTokensPruned: number;
}

/**
 * Purges one closed member in one transaction (DECISIONS §19): the identity row anonymized and their login
 * history, sessions and reset tickets deleted (identity), their blocks both ways, their chat messages and
 * images, the pay-in accounts of their ended listings, their notifications and push subscriptions, their
 * identity evidence (ID documents, verified identity, identity requests), their verified bank account and
 * 1원 checks, and the names in their withdrawals' Travel Rule records. What the
 * ledger needs stays: ledger entries and postings are never deleted, and the member row, wallets, transfers,
 * listings and orders they reference stay as anonymous trade facts. False when it was purged already.
 */
async function purgeMember(db: Db, memberId: number, passwordHash: string): Promise<boolean> {
  return inTx(db, async (tx) => {
    if (!(await purgeMemberIdentity(tx, memberId, passwordHash))) return false;
    await deleteBlocksOf(tx, memberId);
    await purgeMessagesOf(tx, memberId);
    await purgeListingAccountsOf(tx, memberId);
    await purgeNotificationsOf(tx, memberId);
    await purgeKycOf(tx, memberId);
    await purgeBankOf(tx, memberId);
    await purgeTravelRulesOf(tx, memberId);
    return true;
  });
}

/**
 * One run of the retention job: up to `rules.loginBatch` login attempts older than 90 days deleted, as many old
 * SMS codes and refresh tokens (SMS_CODES_KEEP_DAYS, REFRESH_TOKENS_KEEP_DAYS), and up to
 * `rules.batch` closed memberships whose `rules.years` have passed since closing purged, each in its own
 * transaction. `asOf` stands for now (the tests move time with it). Idempotent: a purged member is skipped, and
 * running it again finds nothing new. Callers hold the job's lease (startRetentionJob) or run it alone (tests).
 */
export async function runRetentionPurge(
  db: Db,
  rules: RetentionRules,
  asOf = new Date(),
): Promise<PurgeOutcome> {
  const pruned = {
    loginsPruned: await pruneLoginAttempts(db, LOGIN_HISTORY_DAYS, rules.loginBatch, asOf),
    smsCodesPruned: await pruneSmsCodes(db, SMS_CODES_KEEP_DAYS, rules.loginBatch, asOf),
    refreshTokensPruned: await pruneRefreshTokens(db, REFRESH_TOKENS_KEEP_DAYS, rules.loginBatch, asOf),
  };
  const due = await closedMembersDue(db, asOf, rules.years, rules.batch);
  if (due.length === 0) return { purged: 0, ...pruned };
  // A purged row keeps a password hash of a secret nobody holds: a sign-in with its id fails like any other.
  const passwordHash = await hashPassword(randomBytes(32).toString('hex'));
  let purged = 0;
  for (const id of due) if (await purgeMember(db, id, passwordHash)) purged++;
  return { purged, ...pruned };
}

/**
 * Starts the retention job of this instance (DECISIONS §14, §19): every `intervalMs` it takes or renews the
 * lease `retention-purge` (job_leases, held for twice the interval) and, when it holds it, runs one bounded
 * run. However many instances run, one purges at a time; a crashed holder is replaced when its lease ends. The
 * returned stop() clears the timer, waits for a run in flight and gives the lease up. `intervalMs` 0 = off.
 */
export function startRetentionJob(
  db: Db,
  rules: RetentionRules,
  intervalMs: number,
  log: { error: (obj: unknown, msg: string) => void; info: (obj: unknown, msg: string) => void },
): () => Promise<void> {
  if (intervalMs <= 0) return async () => undefined;
  const holder = randomUUID();
  const runOnce = async () => {
    if (!(await acquireJobLease(db, RETENTION_JOB, holder, intervalMs * 2))) return;
    const out = await runRetentionPurge(db, rules);
    await markJobRun(db, RETENTION_JOB, holder);
    if (Object.values(out).some((n) => n > 0)) log.info(out, 'retention purge');
  };
  const stop = everyInterval(intervalMs, runOnce, (err) => log.error({ err }, 'retention purge failed'));
  return async () => {
    await stop();
    await releaseJobLease(db, RETENTION_JOB, holder).catch(() => undefined);
  };
}
