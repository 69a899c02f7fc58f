import { type Coin, fromUnits, toUnits } from '@p2p/contract';
import { holdSecAt, type TrustConfig } from '../../config-trust.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { AppError } from '../../errors/index.ts';
import { account, balanceOf } from '../../ledger/index.ts';
import { lockWalletRow, memberSince, type ReceivedRow, receivedSince } from './repo-holds.ts';

/** One received amount still on hold: its base units (10^-8) and when it may leave. */
export interface Hold {
  units: bigint;
  until: Date;
}

/** The wallet view's part of the hold (DECISIONS §19). */
export interface HoldView {
  withdrawableBalance: string;
  heldUntil: string | null;
}

type HoldSettings = TrustConfig['holds'];

/**
 * The holds among `rows` at `now`: each received amount waits WITHDRAW_HOLD_SEC, or WITHDRAW_HOLD_NEW_SEC
 * when it arrived during the member's first 30 days (the rule in force when the coins came in, so a hold
 * never shortens when the member passes day 30).
 */
export function holdsFrom(rows: ReceivedRow[], s: HoldSettings, now: Date): Hold[] {
  return rows.flatMap((r) => {
    const until = new Date(r.completed_at.getTime() + 1000 * holdSecAt(s, r.member_since, r.completed_at));
    return until > now ? [{ units: toUnits(r.amount), until }] : [];
  });
}

/** The longest a receipt can be held: receipts older than this are never read. */
function lookback(s: HoldSettings, now: Date): Date {
  return new Date(now.getTime() - 1000 * Math.max(s.holdSec, s.newMemberHoldSec));
}

/** The member's holds per coin at `now` (the wallet view). */
export async function holdsOfMember(
  db: DbOrTx,
  s: HoldSettings,
  memberId: number,
  now = new Date(),
): Promise<Map<Coin, Hold[]>> {
  const rows = await receivedSince(db, memberId, lookback(s, now));
  const out = new Map<Coin, Hold[]>();
  for (const r of rows) out.set(r.coin, [...(out.get(r.coin) ?? []), ...holdsFrom([r], s, now)]);
  return out;
}

const sum = (holds: Hold[]) => holds.reduce((a, h) => a + h.units, 0n);

/** The held part of `available`: coins received and already spent hold nothing back. */
function heldPart(available: bigint, holds: Hold[]): bigint {
  const total = sum(holds);
  if (total < available) return total;
  return available;
}

/**
 * What an external withdrawal may take from `available` (base units) while `holds` last: the held part is at
 * most the balance (coins received and already spent hold nothing back). `heldUntil` is the last hold's end.
 */
export function holdView(available: bigint, holds: Hold[]): HoldView {
  const held = heldPart(available, holds);
  const last = holds.reduce<Date | null>((a, h) => (a === null || h.until > a ? h.until : a), null);
  return {
    withdrawableBalance: fromUnits(available - held),
    heldUntil: held > 0n && last ? last.toISOString() : null,
  };
}

/**
 * The earliest time `need` units can leave `available` as the holds end one by one (no other movement
 * assumed); null when they can leave now, or when the balance cannot cover them at all (the ledger refuses).
 */
export function releaseTime(available: bigint, holds: Hold[], need: bigint): Date | null {
  if (available < need) return null;
  let held = sum(holds);
  if (available - held >= need) return null;
  for (const h of [...holds].sort((a, b) => a.until.getTime() - b.until.getTime())) {
    held -= h.units;
    if (available - held >= need) return h.until;
  }
  return null;
}

/**
 * The hold check of an external withdrawal (DECISIONS §19), inside its transaction: locks the wallet row (two
 * withdrawals of one wallet take turns), reads the available balance and the holds, and throws 422
 * WITHDRAWAL_HELD {until, heldAmount} when `need` (amount + fee, base units) would take held coins.
 */
export async function assertNotHeld(
  tx: Tx,
  s: HoldSettings,
  wallet: { id: number; member_id: number; coin: Coin },
  need: bigint,
  now = new Date(),
): Promise<void> {
  await lockWalletRow(tx, wallet.id);
  const available = await balanceOf(tx, account.available(wallet.member_id, wallet.coin));
  const holds = holdsFrom(await receivedSince(tx, wallet.member_id, lookback(s, now), wallet.coin), s, now);
  const until = releaseTime(available, holds, need);
  if (until === null) return;
  const held = heldPart(available, holds);
  throw new AppError('WITHDRAWAL_HELD', { until: until.toISOString(), heldAmount: fromUnits(held) });
}

/**
 * A P2P purchase delivered straight to an outside address (DECISIONS §19 holds): coins that come in by a P2P
 * purchase leave by external withdrawal only after WITHDRAW_HOLD_SEC (WITHDRAW_HOLD_NEW_SEC in the buyer's
 * first 30 days), and an external delivery would be both at once. So while the buyer's hold is not 0 the
 * purchase is refused with 422 WITHDRAWAL_HELD {until: when coins bought now could leave, heldAmount: `qty`};
 * delivered to the buyer's own wallet, the coins wait there like any other received coins.
 */
export async function assertExternalDeliveryAllowed(
  db: DbOrTx,
  s: HoldSettings,
  memberId: number,
  qty: string,
  now = new Date(),
): Promise<void> {
  if (s.holdSec <= 0 && s.newMemberHoldSec <= 0) return;
  const since = await memberSince(db, memberId);
  if (!since) throw new AppError('UNAUTHORIZED');
  const sec = holdSecAt(s, since, now);
  if (sec <= 0) return;
  throw new AppError('WITHDRAWAL_HELD', {
    until: new Date(now.getTime() + sec * 1000).toISOString(),
    heldAmount: qty,
  });
}
