import {
  fullYears,
  KYC_CODE_MAX_TRIES,
  KYC_MIN_AGE,
  type KycIdentityBody,
  type KycIdentityStarted,
  maskPhone,
  normalizeKycName,
  seoulToday,
} from '@p2p/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { inTx } from '../../db/tx.ts';
import { AppError } from '../../errors/index.ts';
import { type Limit, memberKycRow, raiseKycLevel } from '../identity/index.ts';
import type { IdentityProvider } from './provider.ts';
import {
  countIdentityTry,
  insertIdentityRequest,
  insertVerifiedIdentity,
  markIdentityVerified,
  newestIdentityRequest,
} from './repo.ts';

/** What the identity check needs: the database, the provider, the code's lifetime and the budgets. */
export interface IdentityCheckContext {
  db: Db;
  provider: IdentityProvider;
  codeTtlSec: number;
  /** Identity requests per member per hour (each one sends a code). */
  requestsPerMember: Limit;
  /** Code checks per member per hour, spent before the request is read. */
  verifiesPerMember: Limit;
}

async function memberOrThrow(db: Db, memberId: number) {
  const m = await memberKycRow(db, memberId);
  if (!m) throw new AppError('UNAUTHORIZED');
  return m;
}

/**
 * POST /api/v1/kyc/identity (DECISIONS §19): the member's budget first (429 RATE_LIMITED), then 409
 * KYC_ALREADY_VERIFIED at level 1 or more, 422 UNDERAGE {minAge} (under 19 full years on today's Seoul
 * date), 422 NAME_MISMATCH (the name, NFC with single spaces, differs from the member's), 503
 * SERVICE_UNAVAILABLE when the provider fails. The provider sends a code to the member's phone; the
 * answer says how long it lives and where it went (masked).
 */
export async function startIdentityCheck(
  ctx: IdentityCheckContext,
  memberId: number,
  body: KycIdentityBody,
  log: FastifyBaseLogger,
): Promise<KycIdentityStarted> {
  await ctx.requestsPerMember.consume(String(memberId));
  const m = await memberOrThrow(ctx.db, memberId);
  if (m.kyc_level >= 1) throw new AppError('KYC_ALREADY_VERIFIED');
  if (fullYears(body.birthDate, seoulToday()) < KYC_MIN_AGE)
    throw new AppError('UNDERAGE', { minAge: KYC_MIN_AGE });
  if (normalizeKycName(m.name) !== body.name) throw new AppError('NAME_MISMATCH');
  const claim = { name: body.name, birthDate: body.birthDate, phoneE164: m.phone_e164 };
  let ref: string;
  try {
    ({ ref } = await ctx.provider.request(claim, ctx.codeTtlSec));
  } catch (err) {
    log.error({ err, provider: ctx.provider.kind }, 'identity provider request failed');
    throw new AppError('SERVICE_UNAVAILABLE');
  }
  await insertIdentityRequest(ctx.db, {
    memberId,
    provider: ctx.provider.kind,
    providerRef: ref,
    name: body.name,
    birthDate: body.birthDate,
    ttlSec: ctx.codeTtlSec,
  });
  return { expiresInSec: ctx.codeTtlSec, phone: maskPhone(m.phone_e164) };
}

/**
 * Uses one try of the member's newest request: 400 CODE_EXPIRED (none, used or past its expiry), 400
 * CODE_TRIES_EXCEEDED (5 used: a new request is needed). Returns the request and the tries now counted.
 */
async function takeTry(ctx: IdentityCheckContext, memberId: number) {
  const r = await newestIdentityRequest(ctx.db, memberId);
  if (!r || r.verified_at !== null || r.expired) throw new AppError('CODE_EXPIRED');
  if (r.tries >= KYC_CODE_MAX_TRIES) throw new AppError('CODE_TRIES_EXCEEDED');
  const tries = await countIdentityTry(ctx.db, r.id, KYC_CODE_MAX_TRIES);
  if (tries === undefined) throw new AppError('CODE_TRIES_EXCEEDED');
  return { r, tries };
}

/**
 * POST /api/v1/kyc/identity/verify {code} (DECISIONS §19): the member's budget first (429), one try of the
 * newest request (CODE_EXPIRED, CODE_TRIES_EXCEEDED), the provider's answer (400 CODE_MISMATCH {triesLeft};
 * 503 when it fails), 422 NAME_MISMATCH when the name the provider vouches for differs from the member's.
 * Then, in one transaction, the request is marked verified, the identity recorded and the level raised to 1.
 */
export async function verifyIdentityCheck(
  ctx: IdentityCheckContext,
  memberId: number,
  code: string,
  log: FastifyBaseLogger,
): Promise<{ level: number }> {
  await ctx.verifiesPerMember.consume(String(memberId));
  const m = await memberOrThrow(ctx.db, memberId);
  const { r, tries } = await takeTry(ctx, memberId);
  const claim = { name: r.name, birthDate: r.birth_date, phoneE164: m.phone_e164 };
  let vouched: Awaited<ReturnType<IdentityProvider['verify']>>;
  try {
    vouched = await ctx.provider.verify(r.provider_ref, code, claim);
  } catch (err) {
    log.error({ err, provider: ctx.provider.kind }, 'identity provider verify failed');
    throw new AppError('SERVICE_UNAVAILABLE');
  }
  if (!vouched) throw new AppError('CODE_MISMATCH', { triesLeft: Math.max(0, KYC_CODE_MAX_TRIES - tries) });
  const name = normalizeKycName(vouched.name);
  if (name !== normalizeKycName(m.name)) throw new AppError('NAME_MISMATCH');
  const level = await inTx(ctx.db, async (tx) => {
    if (!(await markIdentityVerified(tx, r.id))) throw new AppError('CODE_EXPIRED');
    await insertVerifiedIdentity(tx, {
      memberId,
      name,
      birthDate: r.birth_date,
      provider: r.provider,
      requestId: r.id,
    });
    return raiseKycLevel(tx, memberId, 1);
  });
  return { level };
}
