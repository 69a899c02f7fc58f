import { randomInt } from 'node:crypto';
import { isE164, loginIdField, nameField, passwordField } from '@p2p/contract';
import type { Db } from '../../db/client.ts';
import { pgConstraint } from '../../errors/index.ts';
import { hashPassword, insertMember, memberByLoginId } from '../identity/index.ts';

export interface OperatorInput {
  loginId: string;
  password: string;
  /** Real name shown in the console; default "Operator". */
  name?: string;
  /** E.164 phone; default a placeholder Korean mobile number (operators need no SMS to sign in). */
  phoneE164?: string;
}

export type EnsureOperatorResult =
  | { outcome: 'created'; id: number; loginId: string }
  | { outcome: 'exists'; id: number; loginId: string }
  | { outcome: 'conflict-member'; id: number; loginId: string };

const DEFAULT_PHONE = '+821000000000';

/** Validates an operator's fields with the member rules of SPEC §5; throws an Error naming each bad field. */
export function validateOperatorInput(o: OperatorInput): void {
  const problems: string[] = [];
  const check = (field: string, r: { success: boolean; error?: { issues: { message: string }[] } }) => {
    if (!r.success) problems.push(`${field}: ${r.error?.issues[0]?.message ?? 'INVALID'}`);
  };
  check('loginId', loginIdField.safeParse(o.loginId));
  check('password', passwordField.safeParse(o.password));
  if (o.name !== undefined) check('name', nameField.safeParse(o.name));
  if (o.phoneE164 !== undefined && !isE164(o.phoneE164)) problems.push('phone: PHONE_INVALID');
  if (problems.length) throw new Error(`invalid operator: ${problems.join(', ')}`);
}

/**
 * Creates the operator `loginId` (role OPERATOR, argon2id password) unless a member with that login ID
 * exists (DECISIONS §6, §10). Idempotent: an existing operator is left unchanged (password included);
 * an existing ordinary MEMBER is never promoted silently (`conflict-member`), since anyone could have
 * signed up under that ID first. The nickname is the login ID (cut to 12), with digits appended if taken.
 * Throws on invalid input.
 */
export async function ensureOperator(db: Db, o: OperatorInput): Promise<EnsureOperatorResult> {
  validateOperatorInput(o);
  const existing = await findByLoginId(db, o.loginId);
  if (existing) return existing;
  const passwordHash = await hashPassword(o.password);
  for (let attempt = 0; attempt < 5; attempt++) {
    const base = o.loginId.slice(0, 12);
    const nickname = attempt === 0 ? base : `${base.slice(0, 8)}${randomInt(1000, 9999)}`;
    try {
      const id = await insertMember(db, {
        role: 'OPERATOR',
        loginId: o.loginId,
        nickname,
        name: o.name ?? 'Operator',
        phoneE164: o.phoneE164 ?? DEFAULT_PHONE,
        passwordHash,
      });
      return { outcome: 'created', id, loginId: o.loginId };
    } catch (err) {
      const constraint = pgConstraint(err);
      // Another process created the same login ID between our read and insert: report what is there.
      if (constraint === 'members_login_id_key') {
        const now = await findByLoginId(db, o.loginId);
        if (now) return now;
      }
      if (constraint !== 'members_nickname_key') throw err;
    }
  }
  throw new Error(`could not find a free nickname for operator ${o.loginId}`);
}

async function findByLoginId(db: Db, loginId: string): Promise<EnsureOperatorResult | null> {
  const row = await memberByLoginId(db, loginId);
  if (!row) return null;
  return {
    outcome: row.role === 'OPERATOR' ? 'exists' : 'conflict-member',
    id: row.id,
    loginId: row.login_id,
  };
}
