import type { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { Config } from '../../config.ts';
import { AppError } from '../../errors/index.ts';

/** One named limit: `points` uses per `durationSec`; 0 points disables it. */
interface LimitSpec {
  name: string;
  points: number;
  durationSec: number;
}

/** A limit that throws 429 RATE_LIMITED when exceeded. */
export interface Limit {
  /** Uses one point of `key`; throws AppError RATE_LIMITED {retryAfterSec} when none is left. */
  consume(key: string): Promise<void>;
  /** Forgets `key` (a successful login clears its failed attempts). */
  reset(key: string): Promise<void>;
  /** Gives one point back to `key` (a successful login was not a failure, but was counted before argon2 ran). */
  refund(key: string): Promise<void>;
}

/** Counts events per key over a fixed window, refusing nothing (the login slow-down reads it). */
export interface Counter {
  /** The events of `key` in its current window (0 when none). */
  count(key: string): Promise<number>;
  /** Counts one event of `key`. */
  add(key: string): Promise<void>;
}

/** The identity limits of DECISIONS §6, each a setting of config.ts (SMS_*, LOGIN_*). */
export interface IdentityLimits {
  smsCooldown: Limit;
  smsPerPhone: Limit;
  smsPerIp: Limit;
  /** Codes asked for by one signed-in member (member id), whatever phone or address: SMS pumping. */
  smsPerMember: Limit;
  /** Login attempts per login id + IP (cleared by a success): an address that guesses locks only itself. */
  login: Limit;
  /**
   * Failed logins per login id from any address (a distributed guess at one account): never refuses, only
   * slows that id's sign-ins down (DECISIONS §21), so nobody can lock another member out.
   */
  loginFailuresPerId: Counter;
  /** Failed logins per IP over any login ids (password spraying from one address). */
  loginPerIp: Limit;
  /** Failed logins per minute over the whole service: caps the argon2 work an attack can cause. */
  loginGlobal: Limit;
  /** check-id, check-nickname and find-phone per IP: they tell whether an account exists. */
  lookupPerIp: Limit;
}

const DISABLED: Limit = {
  consume: async () => undefined,
  reset: async () => undefined,
  refund: async () => undefined,
};

/** One named limit over Redis when given, else in process memory (also used by the trade room's chat limits). */
export function makeLimit(spec: LimitSpec, redis: Redis | null, prefix: string): Limit {
  // rate-limiter-flexible treats duration 0 as "never expires": a zero setting means "no limit" here.
  if (spec.points <= 0 || spec.durationSec <= 0) return DISABLED;
  const base = { keyPrefix: `${prefix}:${spec.name}`, points: spec.points, duration: spec.durationSec };
  let limiter: RateLimiterAbstract;
  if (redis) {
    limiter = new RateLimiterRedis({
      ...base,
      storeClient: redis,
      // If Redis is down the limits still hold per instance instead of failing every request.
      insuranceLimiter: new RateLimiterMemory(base),
    });
  } else {
    limiter = new RateLimiterMemory(base);
  }
  return {
    async consume(key) {
      try {
        await limiter.consume(key);
      } catch (err) {
        if (err instanceof RateLimiterRes) {
          throw new AppError('RATE_LIMITED', { retryAfterSec: Math.ceil(err.msBeforeNext / 1000) });
        }
        throw err;
      }
    },
    async reset(key) {
      await limiter.delete(key);
    },
    async refund(key) {
      await limiter.reward(key, 1);
    },
  };
}

/** One named counter over Redis when given, else in process memory; a window of `durationSec`. */
export function makeCounter(
  spec: { name: string; durationSec: number },
  redis: Redis | null,
  prefix: string,
) {
  // Points are only ever read, never refused: the ceiling is just above anything that can be counted.
  const base = {
    keyPrefix: `${prefix}:${spec.name}`,
    points: 2 ** 30,
    duration: Math.max(1, spec.durationSec),
  };
  const limiter: RateLimiterAbstract = redis
    ? new RateLimiterRedis({ ...base, storeClient: redis, insuranceLimiter: new RateLimiterMemory(base) })
    : new RateLimiterMemory(base);
  const counter: Counter = {
    async count(key) {
      return (await limiter.get(key))?.consumedPoints ?? 0;
    },
    async add(key) {
      await limiter.penalty(key, 1);
    },
  };
  return counter;
}

/**
 * Builds the identity limits over Redis when given (so several API instances share them, DECISIONS §9),
 * else in process memory. `prefix` namespaces the keys (tests use a unique one per run).
 */
export function createIdentityLimits(config: Config, redis: Redis | null, prefix = 'p2p:rl'): IdentityLimits {
  const s = config.sms;
  return {
    smsCooldown: makeLimit(
      { name: 'sms-cooldown', points: 1, durationSec: s.resendCooldownSec },
      redis,
      prefix,
    ),
    smsPerPhone: makeLimit(
      { name: 'sms-phone', points: s.perPhonePerHour, durationSec: 3600 },
      redis,
      prefix,
    ),
    smsPerIp: makeLimit({ name: 'sms-ip', points: s.perIpPerHour, durationSec: 3600 }, redis, prefix),
    smsPerMember: makeLimit(
      { name: 'sms-member', points: s.perMemberPerHour, durationSec: 3600 },
      redis,
      prefix,
    ),
    login: makeLimit(
      { name: 'login', points: config.login.maxAttempts, durationSec: config.login.windowSec },
      redis,
      prefix,
    ),
    loginFailuresPerId: makeCounter(
      { name: 'login-id-failures', durationSec: config.login.windowSec },
      redis,
      prefix,
    ),
    loginPerIp: makeLimit(
      { name: 'login-ip', points: config.login.maxPerIp, durationSec: config.login.windowSec },
      redis,
      prefix,
    ),
    loginGlobal: makeLimit(
      { name: 'login-all', points: config.login.globalPerMin, durationSec: 60 },
      redis,
      prefix,
    ),
    lookupPerIp: makeLimit(
      { name: 'lookup-ip', points: config.lookupPerIpPerHour, durationSec: 3600 },
      redis,
      prefix,
    ),
  };
}

/**
 * The step-up failure budget (DECISIONS §13): wrong passwords or codes per member id, STEP_UP_MAX_FAILURES
 * (default 5) per 15 minutes, shared by PUT /my, external withdrawals and order completion, so an access
 * token alone cannot be used to guess the member's password. Over Redis when given, else in memory.
 */
export function createStepUpLimit(config: Config, redis: Redis | null, prefix = 'p2p:rl'): Limit {
  return makeLimit({ name: 'step-up', points: config.stepUpMaxFailures, durationSec: 900 }, redis, prefix);
}
