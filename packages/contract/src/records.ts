import { z } from 'zod';
import { FIELD_CODES as F } from './errors.ts';
import { nicknameField } from './fields.ts';

/*
 * DECISIONS §19 "Counterparts" and "Records": blocks between members, the login history, closing a
 * membership. Shared by the API (schemas) and the web app (types, limits).
 */

/** How many members one member may block (422 BLOCKS_LIMIT {max} beyond). */
export const MAX_BLOCKS = 100;
/** How far back GET /api/v1/my/logins reaches, and how long login attempts are kept (access logs). */
export const LOGIN_HISTORY_DAYS = 90;
/** At most this many login attempts are answered (the newest). */
export const LOGIN_HISTORY_MAX = 200;

const noNul = (v: string) => !v.includes('\u0000');

/** POST /api/v1/blocks. */
export const BlockBody = z.object({ nickname: nicknameField.refine(noNul, F.INVALID_FORMAT) });
export type BlockBody = z.infer<typeof BlockBody>;
/** DELETE /api/v1/blocks/{nickname}. */
export const BlockParams = z.object({ nickname: nicknameField.refine(noNul, F.INVALID_FORMAT) });

/** One blocked member as the blocker sees it: the public nickname and when they blocked. */
export const BlockedMember = z.object({ nickname: z.string(), blockedAt: z.string() });
export type BlockedMember = z.infer<typeof BlockedMember>;
/** GET /api/v1/blocks: newest first, all of them (at most `max`). */
export const BlockList = z.object({ items: z.array(BlockedMember), max: z.number().int() });
export type BlockList = z.infer<typeof BlockList>;

/** What one sign-in attempt came to. */
export const LOGIN_RESULTS = ['OK', 'BAD_PASSWORD', 'BAD_TOTP', 'LOCKED', 'SUSPENDED', 'CLOSED'] as const;
export type LoginResult = (typeof LOGIN_RESULTS)[number];

/**
 * One row of GET /api/v1/my/logins: `ip` with its last part masked (IPv4 `a.b.c.*`, IPv6 the first three
 * groups then `:*`), `device` read from the user agent (null parts unknown).
 */
export const LoginRecord = z.object({
  at: z.string(),
  ip: z.string(),
  device: z.object({
    browser: z.string().nullable(),
    os: z.string().nullable(),
    type: z.enum(['desktop', 'mobile', 'tablet', 'other']),
  }),
  result: z.enum(LOGIN_RESULTS),
});
export type LoginRecord = z.infer<typeof LoginRecord>;
export const LoginHistory = z.object({ items: z.array(LoginRecord), days: z.number().int() });
export type LoginHistory = z.infer<typeof LoginHistory>;

/** POST /api/v1/my/close: the password again, as a step-up (400 CURRENT_PASSWORD_REQUIRED when absent or ''). */
export const CloseBody = z.object({
  currentPassword: z.string(F.INVALID_TYPE).max(128, F.TOO_LONG).refine(noNul, F.INVALID_FORMAT).optional(),
});
export type CloseBody = z.infer<typeof CloseBody>;
/** The answer of a closing: when, and until when the records are kept (closedAt + retentionYears). */
export const ClosedMembership = z.object({
  closedAt: z.string(),
  retentionYears: z.number().int(),
  keptUntil: z.string(),
});
export type ClosedMembership = z.infer<typeof ClosedMembership>;
