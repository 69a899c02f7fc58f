import { maskPhone, type SmsRequestBody } from '@p2p/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../../deps.ts';
import { AppError } from '../../../errors/index.ts';
import { type CodePurpose, discardCode, issueCode, verifyCode } from '../codes.ts';
import type { IdentityLimits } from '../limits.ts';
import { memberContact, phoneUsedByMember, resettableMember } from '../repo-members.ts';
import type { SmsSetup } from './provider.ts';

export interface SmsContext {
  deps: AppDeps;
  limits: IdentityLimits;
  sms: SmsSetup;
}

interface Target {
  phone: string;
  purpose: CodePurpose;
  ttlSec: number;
  memberId: number | null;
}

async function resolveTarget(
  ctx: SmsContext,
  body: SmsRequestBody,
  memberId: number | null,
): Promise<Target> {
  const { db, config } = ctx.deps;
  if (body.purpose === 'reset') {
    // Operators are never reset by SMS (DECISIONS §13): to this flow their ids do not exist.
    const member = await resettableMember(db, body.loginId ?? '');
    if (!member) throw new AppError('NOT_FOUND_MEMBER_ID');
    // A wrong phone gets the same answer as the right one (the code goes to the stored phone either way and
    // only the member can read it): telling them apart would let the masked phone be guessed digit by digit.
    return {
      phone: member.phone_e164,
      purpose: 'reset',
      ttlSec: config.sms.resetCodeTtlSec,
      memberId: member.id,
    };
  }
  // The body schema guarantees an E.164 phone whenever the purpose is not 'reset'.
  const phone = body.phone ?? '';
  if (memberId === null) {
    if (await phoneUsedByMember(db, phone)) throw new AppError('PHONE_TAKEN');
    return { phone, purpose: 'signup', ttlSec: config.sms.codeTtlSec, memberId };
  }
  const purpose = await memberCodePurpose(ctx, memberId, phone);
  return { phone, purpose, ttlSec: config.sms.codeTtlSec, memberId };
}

/**
 * What a signed-in member's code for `phone` may serve (DECISIONS §21): 'member' for their own phone (the
 * purchase check, a step-up), 'phone_change' for any other (only PUT /my moving to that phone). Decided when
 * the code is sent and again when it is verified, from the phone the member has then.
 */
async function memberCodePurpose(
  ctx: SmsContext,
  memberId: number,
  phone: string,
): Promise<'member' | 'phone_change'> {
  const own = await memberContact(ctx.deps.db, memberId);
  if (!own) throw new AppError('UNAUTHORIZED');
  return own.phone_e164 === phone ? 'member' : 'phone_change';
}

/**
 * POST /sms/request: sends a new code (DECISIONS §6, §21). Without a member the purpose is 'signup' (a phone
 * already used by a member -> 409 PHONE_TAKEN); with one 'member' for the member's own phone and
 * 'phone_change' for any other; `purpose: 'reset'` + loginId sends the 30 s reset code to that member's
 * stored phone. Limits: resend cooldown per phone, sends per phone, per IP and (signed in) per member per
 * hour -> 429 RATE_LIMITED. Provider failure -> 503 SERVICE_UNAVAILABLE. Returns the code's lifetime.
 */
export async function requestCode(
  ctx: SmsContext,
  body: SmsRequestBody,
  memberId: number | null,
  ip: string,
  log: FastifyBaseLogger,
): Promise<{ expiresInSec: number }> {
  // The per-IP budgets are spent before the lookup (DECISIONS §13): a reset for an unknown id and a signup
  // phone that is taken cost the caller as much as a code that was sent.
  await ctx.limits.smsPerIp.consume(ip);
  if (memberId === null) await ctx.limits.lookupPerIp.consume(ip);
  // A signed-in member pays from their own budget too: new addresses and new phones do not refill it.
  else await ctx.limits.smsPerMember.consume(String(memberId));
  const t = await resolveTarget(ctx, body, memberId);
  await ctx.limits.smsCooldown.consume(t.phone);
  await ctx.limits.smsPerPhone.consume(t.phone);
  const { id, code } = await issueCode(ctx.deps.db, { ...t, ip });
  try {
    await ctx.sms.provider.send({ to: t.phone, code, ttlSec: t.ttlSec });
  } catch (err) {
    await discardCode(ctx.deps.db, id);
    // The provider's error names the destination at most, never the code.
    log.error({ err, to: maskPhone(t.phone), provider: ctx.sms.provider.kind }, 'sms send failed');
    throw new AppError('SERVICE_UNAVAILABLE');
  }
  return { expiresInSec: t.ttlSec };
}

/**
 * POST /sms/verify {phone, code}: checks the newest 'signup' code of the phone (no member) or, signed in,
 * the newest code of the phone issued to this member (DECISIONS §13: a code another member requested never
 * verifies here), of purpose 'member' for the member's own phone and 'phone_change' for another
 * (DECISIONS §21). Throws CODE_EXPIRED, CODE_MISMATCH, CODE_TRIES_EXCEEDED.
 */
export async function verifySmsCode(
  ctx: SmsContext,
  body: { phone: string; code: string },
  memberId: number | null,
): Promise<void> {
  const purpose = memberId === null ? 'signup' : await memberCodePurpose(ctx, memberId, body.phone);
  await verifyCode(ctx.deps.db, {
    phone: body.phone,
    purpose,
    code: body.code,
    maxTries: ctx.deps.config.sms.maxTries,
    ...(memberId === null ? {} : { memberId }),
  });
}
