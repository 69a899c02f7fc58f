import {
  type ClosedMembership,
  LOGIN_HISTORY_DAYS,
  LOGIN_HISTORY_MAX,
  type LoginHistory,
  type LoginRecord,
} from '@p2p/contract';
import Bowser from 'bowser';
import ipaddr from 'ipaddr.js';
import type { DbOrTx } from '../../db/client.ts';
import { inTx } from '../../db/tx.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors/index.ts';
import {
  lockMemberForClose,
  loginAttemptRows,
  markMemberClosed,
  requireCurrentPassword,
  revokeAllRefreshTokens,
} from '../identity/index.ts';
import { disableWalletsOf } from '../wallets/index.ts';
import { type MembershipContents, membershipContents } from './queries.ts';

/**
 * An address as the login history shows it (DECISIONS §19): IPv4 `a.b.c.*`, IPv6 its first three groups
 * then `:*` (an IPv4-mapped IPv6 address as its IPv4), anything unreadable `*`.
 */
export function maskIp(ip: string): string {
  if (!ipaddr.isValid(ip)) return '*';
  let addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    addr = (addr as ipaddr.IPv6).toIPv4Address();
  }
  if (addr.kind() === 'ipv4') return `${addr.toByteArray().slice(0, 3).join('.')}.*`;
  const groups = (addr as ipaddr.IPv6).parts.slice(0, 3).map((p) => p.toString(16));
  return `${groups.join(':')}:*`;
}

/** The device of a user agent as the login history shows it: browser and OS names, and the platform type. */
export function deviceOf(userAgent: string | null): LoginRecord['device'] {
  if (!userAgent) return { browser: null, os: null, type: 'other' };
  const ua = Bowser.parse(userAgent);
  const type = ua.platform.type;
  return {
    browser: ua.browser.name ?? null,
    os: ua.os.name ?? null,
    type: type === 'desktop' || type === 'mobile' || type === 'tablet' ? type : 'other',
  };
}

/** GET /api/v1/my/logins (DECISIONS §19): the member's sign-in attempts of the last 90 days, newest first. */
export async function loginHistory(db: DbOrTx, memberId: number): Promise<LoginHistory> {
  const rows = await loginAttemptRows(db, memberId, LOGIN_HISTORY_DAYS, LOGIN_HISTORY_MAX);
  return {
    days: LOGIN_HISTORY_DAYS,
    items: rows.map((r) => ({
      at: new Date(r.at).toISOString(),
      ip: maskIp(r.ip),
      device: deviceOf(r.user_agent),
      result: r.result,
    })),
  };
}

function isEmpty(c: MembershipContents): boolean {
  return c.liveOrders === 0 && c.activeListings === 0 && c.pendingTransfers === 0 && c.balances.length === 0;
}

/**
 * POST /api/v1/my/close {currentPassword} (DECISIONS §19). The password is checked first as PUT /my checks it
 * (400 CURRENT_PASSWORD_REQUIRED / INVALID_CREDENTIALS, the step-up failure budget: 429 RATE_LIMITED). Then one
 * transaction under the member's row lock (a purchase of theirs waits on it, or it waits on the purchase):
 * 409 ACCOUNT_NOT_EMPTY {liveOrders, activeListings, pendingTransfers, balances: [{coinCode, kind, amount}]}
 * while anything is left; else status CLOSED, closed_at now, every session revoked (its event streams end
 * through 016's trigger) and every wallet DISABLED (internal transfers to it are refused). Operators close no membership here (403 FORBIDDEN). Answers closedAt and keptUntil
 * (closedAt + `retentionYears`, when the purge job anonymizes the records).
 */
export async function closeMembership(
  deps: Pick<AppDeps, 'db' | 'config' | 'redis'>,
  memberId: number,
  currentPassword: string | undefined,
  retentionYears: number,
): Promise<ClosedMembership> {
  await requireCurrentPassword(deps, memberId, currentPassword);
  const closedAt = await inTx(deps.db, async (tx) => {
    const m = await lockMemberForClose(tx, memberId);
    if (m.role === 'OPERATOR') throw new AppError('FORBIDDEN', { rule: 'OPERATOR_CLOSE' });
    if (m.status === 'CLOSED') throw new AppError('UNAUTHORIZED');
    const contents = await membershipContents(tx, memberId);
    if (!isEmpty(contents)) {
      throw new AppError('ACCOUNT_NOT_EMPTY', {
        liveOrders: contents.liveOrders,
        activeListings: contents.activeListings,
        pendingTransfers: contents.pendingTransfers,
        balances: contents.balances.map((b) => ({ coinCode: b.coin, kind: b.kind, amount: b.balance })),
      });
    }
    const at = await markMemberClosed(tx, memberId);
    await revokeAllRefreshTokens(tx, memberId);
    await disableWalletsOf(tx, memberId);
    return at;
  });
  const keptUntil = new Date(closedAt);
  keptUntil.setUTCFullYear(keptUntil.getUTCFullYear() + retentionYears);
  return { closedAt: closedAt.toISOString(), retentionYears, keptUntil: keptUntil.toISOString() };
}
