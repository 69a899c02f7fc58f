import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { maskPhone } from '@p2p/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { type DevOutbox, devOutboxFor } from '../identity/index.ts';

/** Who is being checked: the name and birth date the member typed, and the phone the code goes to. */
export interface IdentityClaim {
  name: string;
  birthDate: string;
  phoneE164: string;
}

/** The identity the provider vouches for once the code matched. */
export interface VerifiedIdentity {
  name: string;
  birthDate: string;
}

/**
 * An identity provider in the shape of Korea's PASS / NICE checks (DECISIONS §19): `request` has the
 * provider send a code to the phone registered to that name and birth date and answers its reference;
 * `verify` hands the code the member typed back and answers the identity the provider vouches for, or null
 * for a wrong code. Both throw when the provider cannot be reached (the caller answers 503).
 */
export interface IdentityProvider {
  readonly kind: 'console' | 'http';
  request(claim: IdentityClaim, ttlSec: number): Promise<{ ref: string }>;
  verify(ref: string, code: string, claim: IdentityClaim): Promise<VerifiedIdentity | null>;
}

const digest = (salt: string, code: string) => createHash('sha256').update(`${salt}:${code}`).digest('hex');

/**
 * Outside production: the 6-digit code goes to the dev outbox of the member's phone (GET /dev/sms/outbox),
 * the log gets the masked phone only. The reference is the code's salted hash, so nothing but the request
 * row holds the state and every API instance can verify it. It vouches for the name it was asked about.
 */
export class ConsoleIdentityProvider implements IdentityProvider {
  readonly kind = 'console' as const;
  constructor(
    private readonly outbox: DevOutbox,
    private readonly log: FastifyBaseLogger,
  ) {}

  async request(claim: IdentityClaim): Promise<{ ref: string }> {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const salt = randomBytes(16).toString('hex');
    await this.outbox.put(claim.phoneE164, { code, sentAt: new Date().toISOString() });
    this.log.info(
      { to: maskPhone(claim.phoneE164) },
      'identity code sent (console provider, see the dev outbox)',
    );
    return { ref: `${salt}$${digest(salt, code)}` };
  }

  async verify(ref: string, code: string, claim: IdentityClaim): Promise<VerifiedIdentity | null> {
    const [salt, hash] = ref.split('$');
    if (!salt || !hash) return null;
    const a = Buffer.from(digest(salt, code));
    const b = Buffer.from(hash);
    return a.length === b.length && timingSafeEqual(a, b)
      ? { name: claim.name, birthDate: claim.birthDate }
      : null;
  }
}

const requested = z.object({ requestId: z.string().min(1).max(200) });
const verified = z.union([
  z.object({ verified: z.literal(true), name: z.string().min(1).max(100), birthDate: z.string() }),
  z.object({ verified: z.literal(false) }),
]);

/**
 * A PASS / NICE gateway over HTTPS (KYC_PROVIDER=http): `POST {url}/v1/identity/requests {name, birthDate,
 * phone}` -> `{requestId}`; `POST {url}/v1/identity/requests/{requestId}/verify {code}` -> `{verified: true,
 * name, birthDate}` or `{verified: false}`; bearer KYC_PROVIDER_KEY; 10 s per call; answers checked with zod.
 */
export class HttpIdentityProvider implements IdentityProvider {
  readonly kind = 'http' as const;
  constructor(
    private readonly url: string,
    private readonly key: string,
  ) {}

  private async post(path: string, body: unknown): Promise<unknown> {
    const res = await fetch(new URL(path, this.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.key}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`identity provider answered ${res.status}`);
    return res.json();
  }

  async request(claim: IdentityClaim): Promise<{ ref: string }> {
    const body = { name: claim.name, birthDate: claim.birthDate, phone: claim.phoneE164 };
    const r = requested.parse(await this.post('v1/identity/requests', body));
    return { ref: r.requestId };
  }

  async verify(ref: string, code: string): Promise<VerifiedIdentity | null> {
    const r = verified.parse(
      await this.post(`v1/identity/requests/${encodeURIComponent(ref)}/verify`, { code }),
    );
    return r.verified ? { name: r.name, birthDate: r.birthDate } : null;
  }
}

/**
 * The configured identity provider (config.kyc.provider). Throws, refusing to start, when `http` lacks its
 * URL or key, or when the console provider is asked for in production (it vouches for any name).
 */
export function createIdentityProvider(
  config: Config,
  redis: Redis | null,
  log: FastifyBaseLogger,
): IdentityProvider {
  const { provider, providerUrl, providerKey } = config.kyc;
  if (provider === 'console') {
    if (config.isProduction)
      throw new Error('KYC_PROVIDER=console is refused in production: it vouches for any name');
    return new ConsoleIdentityProvider(devOutboxFor(config, redis), log);
  }
  if (!providerUrl || !providerKey) {
    throw new Error('KYC_PROVIDER=http needs KYC_PROVIDER_URL and KYC_PROVIDER_KEY (the PASS/NICE gateway)');
  }
  return new HttpIdentityProvider(providerUrl.endsWith('/') ? providerUrl : `${providerUrl}/`, providerKey);
}
