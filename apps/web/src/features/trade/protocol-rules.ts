import type { OrderDispute, SellerStats } from '@p2p/contract';
import { buyerMayDispute } from '@p2p/contract/dispute-rules.ts';
import { type OrderStatus, orderActionsFor } from '@p2p/contract/enums.ts';
import { isDepositNote } from '@p2p/contract/market.ts';

/** Which party of an order the screen belongs to. */
export type OrderSide = 'buyer' | 'seller';

/**
 * What a party can do on a screen (DECISIONS §11): the transition table's actions plus `statement`, the
 * other party's side of an open dispute (the dispute call again while DISPUTED, once per party).
 */
export type MemberAction = 'paid' | 'complete' | 'dispute' | 'statement' | 'cancel' | 'reject';

/** The fields of an order view the buttons depend on. */
export interface ActionableOrder {
  status: OrderStatus;
  disputeOpensAt: string | null;
  dispute: Pick<OrderDispute, 'buyerStatement' | 'sellerStatement'> | null;
}

/** Primary actions first, the destructive ones last (the screen's button order). */
const ORDER: readonly MemberAction[] = ['paid', 'complete', 'dispute', 'statement', 'cancel', 'reject'];

/**
 * The buttons of an order screen (DESIGN "buttons from the machine", DECISIONS §11): the actions the
 * contract's transition table allows `side` in this status, with the table's time rule applied (a buyer
 * disputes only from `disputeOpensAt`; `disputeLater` then says when), plus `statement` while DISPUTED
 * for a party who has not stated yet.
 */
export function memberActions(
  o: ActionableOrder,
  side: OrderSide,
  nowMs: number,
): { actions: MemberAction[]; disputeLater: string | null } {
  let disputeLater: string | null = null;
  const allowed: MemberAction[] = [];
  for (const a of orderActionsFor(o.status, side)) {
    if (a === 'expire' || a === 'escalate') continue;
    if (a === 'dispute' && side === 'buyer') {
      if (!buyerMayDispute(o.disputeOpensAt, nowMs)) {
        disputeLater = o.disputeOpensAt;
        continue;
      }
    }
    allowed.push(a);
  }
  if (o.status === 'DISPUTED' && o.dispute) {
    const mine = side === 'buyer' ? o.dispute.buyerStatement : o.dispute.sellerStatement;
    if (mine === null) allowed.push('statement');
  }
  return { actions: ORDER.filter((a) => allowed.includes(a)), disputeLater };
}

/** The four steps of the tracker (신청 -> 입금 -> 판매자 확인 -> 지급). */
export const ORDER_STEPS = ['requested', 'paid', 'confirm', 'released'] as const;

/**
 * How far an order got on the tracker: the index of the step in progress (REQUESTED: the deposit,
 * PAID and DISPUTED: the seller's check), 4 when COMPLETED (all done), null when it ended without
 * delivery (cancelled, rejected, expired: the tracker gives way to the explanation).
 */
export function stepOf(status: OrderStatus): number | null {
  switch (status) {
    case 'REQUESTED':
      return 1;
    case 'PAID':
    case 'DISPUTED':
      return 2;
    case 'COMPLETED':
      return 4;
    default:
      return null;
  }
}

/** The pieces of a seller's track record line, as i18n keys with their values (DECISIONS §11). */
export type StatsPart =
  | { key: 'trades'; count: number }
  | { key: 'rate'; pct: number }
  | { key: 'release'; minutes: number }
  | { key: 'new' };

/**
 * "거래 152회 · 완료율 98% · 보통 7분": what is null is left out; below 5 ended orders (completion rate
 * null) the seller is marked new. The release time is the median, rounded to whole minutes, at least 1.
 */
export function sellerStatsParts(st: SellerStats): StatsPart[] {
  const parts: StatsPart[] = [];
  if (st.completionRatePct === null) parts.push({ key: 'new' });
  if (st.completedTrades > 0) parts.push({ key: 'trades', count: st.completedTrades });
  if (st.completionRatePct !== null) parts.push({ key: 'rate', pct: st.completionRatePct });
  if (st.medianReleaseSec !== null) {
    parts.push({ key: 'release', minutes: Math.max(1, Math.round(st.medianReleaseSec / 60)) });
  }
  return parts;
}

/** Seconds left until `deadlineIso` at `nowMs`, never below 0 (0 for a missing or broken instant). */
export function secondsLeft(deadlineIso: string | null, nowMs: number): number {
  const at = deadlineIso ? Date.parse(deadlineIso) : Number.NaN;
  return Number.isFinite(at) ? Math.max(0, Math.ceil((at - nowMs) / 1000)) : 0;
}

/** 125 -> "02:05", 3725 -> "1:02:05" (a reserve order's window can be hours long). */
export function formatRemaining(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const mmss = `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
  return h > 0 ? `${h}:${mmss}` : mmss;
}

/**
 * The deliberate release (DECISIONS §11, §13): the seller ticked both checks (amount received, depositor
 * name matches), kept a deposit note the contract takes (1-100 printable characters, no emoji) and typed the
 * password.
 */
export function canRelease(v: {
  amountChecked: boolean;
  nameChecked: boolean;
  txid: string;
  password: string;
  submitting: boolean;
}): boolean {
  return v.amountChecked && v.nameChecked && isDepositNote(v.txid) && v.password !== '' && !v.submitting;
}
