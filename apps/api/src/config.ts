import { resolve } from 'node:path';
import { byCoin, COINS, type Coin, type CompanyInfo, ORDER_TIMING_DEFAULTS } from '@p2p/contract';
import { isValidClassicAddress } from 'ripple-address-codec';
import { z } from 'zod';
import { TRUST_ENV, type TrustConfig, trustConfig } from './config-trust.ts';

const bool = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');
/** A coin amount with at most 8 decimals (withdrawal fees, DECISIONS §3). */
const FEE_RE = /^\d{1,12}(\.\d{1,8})?$/;
const int = (def: number) => z.coerce.number().int().nonnegative().default(def);

/**
 * Confirmations a deposit needs before it is credited, per coin, unless CHAIN_CONFIRMATIONS_<COIN> says
 * otherwise (DECISIONS §17; why these figures: docs/operations.md "Chain nodes").
 */
export const DEFAULT_CONFIRMATIONS: Record<Coin, number> = { BTC: 2, ETH: 12, XRP: 1, TRX: 20 };

/**
 * `<PREFIX>_<COIN>` for every coin of the registry: XPUB_BTC, XPUB_ETH, ... Typed by the template
 * literal, so `e[\`XPUB_${coin}\`]` reads one of them.
 */
function perCoin<P extends string, T extends z.ZodType>(prefix: P, field: T): Record<`${P}_${Coin}`, T> {
  const entries: [`${P}_${Coin}`, T][] = COINS.map((coin) => [`${prefix}_${coin}`, field]);
  return Object.fromEntries(entries) as Record<`${P}_${Coin}`, T>;
}

/**
 * Every environment variable the API reads (DECISIONS §10), parsed once. Defaults are those of the
 * embedded mode: PGlite under DATA_DIR, console SMS, static-free live prices.
 */
const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: int(8080),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  REDIS_URL: z.string().optional(),
  SEED_DEMO: bool.optional(),
  OPERATOR_LOGIN_ID: z.string().optional(),
  OPERATOR_PASSWORD: z.string().optional(),
  SMS_PROVIDER: z.enum(['console', 'twilio']).optional(),
  TWILIO_ACCOUNT_SID: z.string().optional(),
  TWILIO_AUTH_TOKEN: z.string().optional(),
  TWILIO_FROM: z.string().optional(),
  PRICE_PROVIDER: z.enum(['coingecko', 'upbit', 'static']).default('coingecko'),
  PRICE_FILE: z.string().optional(),
  PRICE_UPSTREAM_URL: z.string().optional(),
  COMPANY_NAME: z.string().optional(),
  COMPANY_CEO: z.string().optional(),
  COMPANY_REG_NO: z.string().optional(),
  COMPANY_VASP_NO: z.string().optional(),
  COMPANY_SUPPORT: z.string().optional(),
  CHAIN_NETWORK: z.enum(['mainnet', 'testnet', 'regtest']).default('mainnet'),
  ...perCoin('XPUB', z.string().optional()),
  XRP_DEPOSIT_ACCOUNT: z
    .string()
    .refine((a) => isValidClassicAddress(a), 'not a classic XRP address (r...)')
    .optional(),
  ...perCoin('WITHDRAW_FEE', z.string().regex(FEE_RE).default('0')),
  // DECISIONS §17: the chain watchers (modules/deposits).
  ...perCoin('CHAIN_RPC', z.url({ protocol: /^https?$/ }).optional()),
  ...perCoin('CHAIN_CONFIRMATIONS', z.coerce.number().int().min(1).max(10_000).optional()),
  ...perCoin('CHAIN_START_HEIGHT', z.coerce.number().int().nonnegative().optional()),
  ...perCoin('DEPOSIT_MIN', z.string().regex(FEE_RE).default('0')),
  CHAIN_API_KEY_TRX: z.string().optional(),
  // DECISIONS §18: the signer (apps/signer) and its shared HMAC secret.
  SIGNER_PORT: z.coerce.number().int().min(1).max(65535).default(8081),
  SIGNER_URL: z.url({ protocol: /^https?$/ }).optional(),
  SIGNER_TOKEN: z.string().min(1).optional(),
  CHAIN_POLL_MS: z.coerce.number().int().min(50).default(5_000),
  CHAIN_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  CHAIN_LEASE_MS: z.coerce.number().int().min(500).default(30_000),
  // DECISIONS §18: the withdrawal pipeline (modules/withdrawals).
  ...perCoin('WITHDRAW_AUTO_MAX', z.string().regex(FEE_RE).default('0')),
  ...perCoin('EXPLORER_TX_URL', z.string().includes('{txid}').optional()),
  ...perCoin('COLD_ADDRESS', z.string().optional()),
  ...perCoin('HOT_WALLET_MAX', z.string().regex(FEE_RE).optional()),
  WITHDRAW_MISSING_GRACE_SEC: z.coerce.number().int().min(1).default(600),
  WITHDRAW_RETRY_SEC: z.coerce.number().int().min(1).default(60),
  COLD_SHARE_MIN_PCT: z.coerce.number().int().min(0).max(100).default(80),
  CHAIN_FEE_RATE_BTC: z.coerce.number().int().min(1).max(1000).default(20),
  TRADE_FEE_BPS: z.coerce.number().int().min(0).max(1000).default(0),
  ORDER_PAYMENT_WINDOW_SEC: z.coerce.number().int().min(1).default(ORDER_TIMING_DEFAULTS.paymentWindowSec),
  ORDER_DISPUTE_AFTER_SEC: int(ORDER_TIMING_DEFAULTS.disputeAfterSec),
  ORDER_RELEASE_WINDOW_SEC: z.coerce.number().int().min(1).default(ORDER_TIMING_DEFAULTS.releaseWindowSec),
  MAX_LIVE_ORDERS_PER_BUYER: z.coerce.number().int().min(1).default(3),
  BUYER_CANCELS_PER_DAY: z.coerce.number().int().min(1).default(3),
  ORDER_TIMER_INTERVAL_MS: int(10_000),
  TRADE_LIST_CACHE_MS: int(1_000),
  BEST_LISTINGS_REFRESH_MS: int(60_000),
  KEPT_COUNTS_FOLD_MS: int(5_000),
  RESERVES_SNAPSHOT_HOURS: int(24),
  PG_PREPARED_STATEMENTS: bool.default(true),
  JWT_SECRET: z.string().min(32).optional(),
  ACCESS_TOKEN_TTL_SEC: int(900),
  REFRESH_TOKEN_TTL_SEC: int(14 * 24 * 3600),
  SMS_CODE_TTL_SEC: int(120),
  SMS_RESET_CODE_TTL_SEC: int(30),
  SMS_MAX_TRIES: int(5),
  SMS_RESEND_COOLDOWN_SEC: int(30),
  SMS_PER_PHONE_PER_HOUR: int(10),
  SMS_PER_IP_PER_HOUR: int(30),
  SMS_PER_MEMBER_PER_HOUR: int(10),
  LOGIN_MAX_ATTEMPTS: int(10),
  LOGIN_SLOWDOWN_AFTER: int(5),
  LOGIN_SLOWDOWN_MAX_MS: z.coerce.number().int().min(0).max(30_000).default(3000),
  LOGIN_MAX_FAILURES_PER_IP: int(50),
  LOGIN_GLOBAL_FAILURES_PER_MIN: int(600),
  LOOKUP_PER_IP_PER_HOUR: int(300),
  STEP_UP_MAX_FAILURES: int(5),
  LOGIN_WINDOW_SEC: int(900),
  CORS_ORIGIN: z.string().default('http://localhost:5173'),
  TRUST_PROXY: bool.optional(),
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).optional(),
  WEB_DIST_DIR: z.string().optional(),
  DOCS_PUBLIC: bool.default(false),
  SHUTDOWN_GRACE_SEC: int(0),
  METRICS_TOKEN: z.string().min(16).optional(),
  IDEMPOTENCY_MAX_PER_MEMBER_DAY: z.coerce.number().int().min(1).default(2000),
  VAPID_PUBLIC_KEY: z.string().optional(),
  VAPID_PRIVATE_KEY: z.string().optional(),
  VAPID_SUBJECT: z.string().optional(),
  CHAT_MESSAGES_PER_MIN: int(30),
  CHAT_IMAGES_PER_HOUR: int(30),
  EVENTS_HEARTBEAT_SEC: z.coerce.number().int().min(1).default(20),
  EVENTS_BACKLOG_SEC: z.coerce.number().int().min(60).default(86_400),
  EVENTS_MAX_STREAMS_PER_MEMBER: z.coerce.number().int().min(1).default(5),
  // DECISIONS §19: identity levels (modules/kyc).
  KYC_PROVIDER: z.enum(['console', 'http']).optional(),
  KYC_PROVIDER_URL: z.url({ protocol: /^https?$/ }).optional(),
  KYC_PROVIDER_KEY: z.string().min(16).optional(),
  KYC_DOC_KEY: z
    .string()
    .regex(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, '32 bytes as 64 hex digits or base64')
    .optional(),
  KYC_TRADE_LEVEL: z.coerce.number().int().min(0).max(2).default(1),
  KYC1_DAILY_KRW: z.coerce.number().int().min(0).default(5_000_000),
  KYC_REQUESTS_PER_HOUR: int(5),
  KYC_VERIFY_PER_HOUR: int(20),
  KYC_DOCUMENTS_PER_DAY: int(10),
  RETENTION_YEARS: z.coerce.number().int().min(1).max(50).default(5),
  RETENTION_JOB_INTERVAL_MS: int(3_600_000),
  RETENTION_BATCH: z.coerce.number().int().min(1).default(50),
  LEDGER_CHECK_INTERVAL_MS: int(15_000),
  LEDGER_CHECK_FULL_HOURS: int(24),
  LEDGER_CHECK_SETTLE_MS: int(10_000),
  LEDGER_CHECK_CHUNK: z.coerce.number().int().min(1).default(200_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ...TRUST_ENV,
});

export type Env = z.input<typeof schema>;

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  isProduction: boolean;
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Embedded PGlite in memory (tests) instead of under dataDir. */
  pgliteInMemory: boolean;
  redisUrl: string | undefined;
  seedDemo: boolean | undefined;
  operator: { loginId: string; password: string } | undefined;
  sms: {
    provider: 'console' | 'twilio';
    twilio: { accountSid?: string; authToken?: string; from?: string };
    codeTtlSec: number;
    resetCodeTtlSec: number;
    maxTries: number;
    resendCooldownSec: number;
    perPhonePerHour: number;
    perIpPerHour: number;
    /** Codes a signed-in member may ask for per hour, whatever phone and address (DECISIONS §21). */
    perMemberPerHour: number;
  };
  /**
   * Login limits (DECISIONS §13, §21): attempts per id + IP, failures per IP (per windowSec) and over the
   * whole service per minute, each spent before argon2 runs (a success gives its point back); and the per-id
   * slow-down: after `slowDownAfter` failures of an id from any address within windowSec, each attempt on it
   * waits, longer with every failure, at most `slowDownMaxMs` (0 = no slow-down). Never a refusal.
   */
  login: {
    maxAttempts: number;
    windowSec: number;
    maxPerIp: number;
    globalPerMin: number;
    slowDownAfter: number;
    slowDownMaxMs: number;
  };
  /** check-id, check-nickname and find-phone calls per IP per hour (account enumeration). */
  lookupPerIpPerHour: number;
  /** Wrong step-up passwords or codes per member per 15 minutes (DECISIONS §13); 0 = no limit. */
  stepUpMaxFailures: number;
  /** The operator's business details shown in the footer (GET /api/v1/company); null = not configured. */
  company: CompanyInfo;
  prices: {
    provider: 'coingecko' | 'upbit' | 'static';
    file: string | undefined;
    upstreamUrl: string | undefined;
  };
  chain: {
    /** CHAIN_NETWORK (DECISIONS §5, §17): address formats; regtest = BTC `bcrt1...`, other coins as testnet. */
    network: 'mainnet' | 'testnet' | 'regtest';
    /** XPUB_<COIN>: the watch-only account key per coin (DECISIONS §5); absent = development seed or refusal. */
    xpubs: Partial<Record<Coin, string>>;
    /** Fee per external withdrawal, a decimal coin amount per coin (DECISIONS §3; default 0). */
    withdrawFees: Record<Coin, string>;
    /** XRP_DEPOSIT_ACCOUNT: the platform's XRP receiving account (DECISIONS §17); absent = 0/0 of XPUB_XRP. */
    xrpDepositAccount: string | undefined;
  };
  /**
   * The chain watchers (DECISIONS §17). `rpc`: CHAIN_RPC_<COIN>, the node of each coin that has one (others
   * stay operator-driven); `confirmations`: per coin, CHAIN_CONFIRMATIONS_<COIN> or DEFAULT_CONFIRMATIONS;
   * `depositMin`: DEPOSIT_MIN_<COIN>, a decimal coin amount (smaller deposits are recorded BELOW_MINIMUM);
   * `startHeights`: CHAIN_START_HEIGHT_<COIN>, where a coin's first scan begins (default: the node's tip less
   * its confirmations); `pollMs` between scans; `timeoutMs` per node call; `leaseMs`: how long an instance's
   * watcher lease lasts unrenewed (a crashed holder is replaced after it).
   */
  chainWatch: {
    rpc: Partial<Record<Coin, string>>;
    trxApiKey: string | undefined;
    confirmations: Record<Coin, number>;
    depositMin: Record<Coin, string>;
    startHeights: Partial<Record<Coin, number>>;
    pollMs: number;
    timeoutMs: number;
    leaseMs: number;
  };
  /**
   * The withdrawal pipeline (DECISIONS §18). `autoMax`: WITHDRAW_AUTO_MAX_<COIN>, a decimal coin amount up to
   * which a withdrawal approves itself (0 = always an operator); `explorerTxUrl`: EXPLORER_TX_URL_<COIN>, a
   * template with `{txid}`; `coldAddress`: COLD_ADDRESS_<COIN>; `missingGraceSec`: how long a sent transaction
   * may be missing from the node before the withdrawal is FAILED; `retrySec`: how long the worker leaves an
   * APPROVED withdrawal alone after the signer refused it or a node call failed.
   */
  withdrawals: {
    autoMax: Record<Coin, string>;
    explorerTxUrl: Partial<Record<Coin, string>>;
    coldAddress: Partial<Record<Coin, string>>;
    /** HOT_WALLET_MAX_<COIN>: the most the hot keys hold, a decimal coin amount; above it the excess goes cold. */
    hotMax: Partial<Record<Coin, string>>;
    missingGraceSec: number;
    retrySec: number;
    /** COLD_SHARE_MIN_PCT (80, Korea's user-protection act): the least cold share per coin, whole percent. */
    coldShareMinPct: number;
    /** CHAIN_FEE_RATE_BTC, sat/vB (default 20): BTC withdrawals' fee rate when the node has no plausible estimate. */
    btcFallbackFeeRate: number;
  };
  /**
   * The signer (DECISIONS §18): `url` = SIGNER_URL, default http://127.0.0.1:$SIGNER_PORT; `token` =
   * SIGNER_TOKEN, required in production (at least 32 characters); outside production, when unset, the
   * development signer's <DATA_DIR>/signer/token (chains/signer-client.ts).
   */
  signer: { url: string; token: string | undefined };
  /** Fee per completed buy order in basis points of requestQty, paid by the buyer (DECISIONS §3; 0..1000). */
  tradeFeeBps: number;
  /**
   * The trade protocol (DECISIONS §11), seconds: payment window (REQUESTED -> EXPIRED), how long after PAID
   * the buyer may dispute, release window (PAID -> DISPUTED); buyer limits; how often each instance runs the
   * order timers (ms, 0 = never: tests drive them by hand).
   */
  orders: {
    paymentWindowSec: number;
    disputeAfterSec: number;
    releaseWindowSec: number;
    maxLivePerBuyer: number;
    buyerCancelsPerDay: number;
    timerIntervalMs: number;
  };
  /**
   * Hard age limit (ms) of a cached trade-list answer: the cache is dropped on every change anyway; this
   * bounds how stale an answer can be if a notification is lost. 0 = no cache.
   */
  tradeListCacheMs: number;
  /** How often the home carousel's figures are rewritten (listings/best-listings.ts, issue 27); 0 = never. */
  bestListingsRefreshMs: number;
  /** How often the kept counts' deltas are folded (db/kept-counts.ts, issue 27); 0 = never. */
  keptCountsFoldMs: number;
  /** DECISIONS §20: hours between the automatic proof-of-reserves snapshots of each coin; 0 = only on request. */
  reservesSnapshotHours: number;
  /**
   * DECISIONS §19: closed memberships' records are kept `years` (RETENTION_YEARS) and then purged by the
   * retention job, which runs every `jobIntervalMs` (0 = never: tests run it by hand) on the instance holding
   * its lease, `batch` memberships (and 20 x batch old login attempts) a run.
   */
  retention: { years: number; jobIntervalMs: number; batch: number };
  /**
   * The ledger check job (issue 27, DECISIONS §4): a tick every `intervalMs` (0 = never: tests run it by hand) on
   * the instance holding the `ledger-check` lease; a full pass every `fullHours` (0 = only when asked); posting
   * ids are final `settleMs` after they were seen; `chunk` posting ids per chunk.
   */
  ledgerCheck: { intervalMs: number; fullHours: number; settleMs: number; chunk: number };
  /**
   * Send parameterized statements to PostgreSQL as named prepared statements (db/prepared.ts). Off for a
   * pooler in transaction mode that does not track prepared statements.
   */
  pgPreparedStatements: boolean;
  jwtSecret: string | undefined;
  accessTokenTtlSec: number;
  refreshTokenTtlSec: number;
  corsOrigin: string;
  /**
   * How many proxies in front of the API append to X-Forwarded-For (DECISIONS §21): the client address is the
   * entry that many places from the right; 0 = the header is ignored and the socket's peer is the client.
   */
  trustProxyHops: number;
  webDistDir: string | undefined;
  /** Serve /docs (Swagger UI and /docs/json) in production too; always served outside production. */
  docsPublic: boolean;
  /** Seconds between the shutdown signal (readyz 503) and closing the listener, for load balancers to notice. */
  shutdownGraceSec: number;
  /** Bearer token for GET /metrics (DECISIONS §14); required to read it in production, checked whenever set. */
  metricsToken: string | undefined;
  /** Idempotency keys one caller may hold within 24 h (DECISIONS §21); a new key beyond: 429 RATE_LIMITED. */
  idempotencyMaxPerMemberDay: number;
  /**
   * The trade room (DECISIONS §12): Web Push VAPID keys (from the environment, else generated under
   * DATA_DIR outside production), chat posts per member (texts per minute, images per hour; 0 = no
   * limit), live-event heartbeat seconds, how long the resumable backlog is kept (s), streams per member.
   */
  tradeRoom: {
    vapid: { publicKey?: string; privateKey?: string; subject?: string };
    messagesPerMin: number;
    imagesPerHour: number;
    heartbeatSec: number;
    backlogSec: number;
    maxStreamsPerMember: number;
  };
  /**
   * Identity levels (DECISIONS §19). `provider`: KYC_PROVIDER (console outside production, refused in
   * production; http = a PASS/NICE gateway at `providerUrl` with `providerKey`); `docKey`: KYC_DOC_KEY, the
   * 32-byte AES key that seals ID documents (required in production, else generated under DATA_DIR);
   * `tradeLevel`: KYC_TRADE_LEVEL, the level trading and external withdrawals need (0 = none);
   * `level1DailyKrw`: KYC1_DAILY_KRW, the KRW a member below level 2 may trade per 24 h; the per-member
   * budgets: identity requests and code checks per hour, document uploads per day (0 = no limit).
   */
  kyc: {
    provider: 'console' | 'http';
    providerUrl: string | undefined;
    providerKey: string | undefined;
    docKey: string | undefined;
    tradeLevel: number;
    level1DailyKrw: number;
    requestsPerHour: number;
    verifyPerHour: number;
    documentsPerDay: number;
  };
  /** DECISIONS §19: 1원 인증, withdrawal holds, the Travel Rule (config-trust.ts). */
  trust: TrustConfig;
  logLevel: string;
}

/** The parsed environment (the schema's output: defaults applied, numbers coerced). */
type ParsedEnv = z.output<typeof schema>;

/**
 * The chain settings of the configuration (DECISIONS §17, §18): deposit addresses and withdrawal fees per coin,
 * the signer, then the deposit watchers' nodes, confirmations, minimums, start heights and timing, then the withdrawal
 * pipeline's limits. Throws when
 * CHAIN_LEASE_MS is not more than twice CHAIN_POLL_MS.
 */
function chainConfig(
  e: ParsedEnv,
): Pick<Config, 'chain' | 'chainWatch' | 'signer' | 'withdrawals' | 'trust'> {
  // The active deposit watcher renews its lease once a pass (DECISIONS §17): a lease shorter than the pause
  // between passes would lapse every time and hand the watching from instance to instance.
  if (e.CHAIN_LEASE_MS <= 2 * e.CHAIN_POLL_MS) {
    throw new Error('invalid configuration: CHAIN_LEASE_MS must be more than twice CHAIN_POLL_MS');
  }
  return {
    // DECISIONS §19: holds and the Travel Rule act on withdrawals, so they are read with the chain settings.
    trust: trustConfig(e, e.NODE_ENV === 'production'),
    chain: {
      network: e.CHAIN_NETWORK,
      xpubs: byCoin((coin) => e[`XPUB_${coin}`]),
      withdrawFees: byCoin((coin) => e[`WITHDRAW_FEE_${coin}`]),
      xrpDepositAccount: e.XRP_DEPOSIT_ACCOUNT,
    },
    chainWatch: {
      rpc: byCoin((coin) => e[`CHAIN_RPC_${coin}`]),
      trxApiKey: e.CHAIN_API_KEY_TRX,
      confirmations: byCoin((coin) => e[`CHAIN_CONFIRMATIONS_${coin}`] ?? DEFAULT_CONFIRMATIONS[coin]),
      depositMin: byCoin((coin) => e[`DEPOSIT_MIN_${coin}`]),
      startHeights: byCoin((coin) => e[`CHAIN_START_HEIGHT_${coin}`]),
      pollMs: e.CHAIN_POLL_MS,
      timeoutMs: e.CHAIN_TIMEOUT_MS,
      leaseMs: e.CHAIN_LEASE_MS,
    },
    signer: signerConfig(e),
    withdrawals: {
      autoMax: byCoin((coin) => e[`WITHDRAW_AUTO_MAX_${coin}`]),
      explorerTxUrl: byCoin((coin) => e[`EXPLORER_TX_URL_${coin}`]),
      coldAddress: byCoin((coin) => e[`COLD_ADDRESS_${coin}`]),
      hotMax: byCoin((coin) => e[`HOT_WALLET_MAX_${coin}`]),
      missingGraceSec: e.WITHDRAW_MISSING_GRACE_SEC,
      retrySec: e.WITHDRAW_RETRY_SEC,
      coldShareMinPct: e.COLD_SHARE_MIN_PCT,
      btcFallbackFeeRate: e.CHAIN_FEE_RATE_BTC,
    },
  };
}

/** The identity module's settings: SMS codes and their limits, login limits and slow-down, lookups, step-up. */
function identityConfig(
  e: ParsedEnv,
  isProduction: boolean,
): Pick<Config, 'sms' | 'login' | 'lookupPerIpPerHour' | 'stepUpMaxFailures'> {
  return {
    sms: {
      provider: e.SMS_PROVIDER ?? (isProduction ? 'twilio' : 'console'),
      twilio: { accountSid: e.TWILIO_ACCOUNT_SID, authToken: e.TWILIO_AUTH_TOKEN, from: e.TWILIO_FROM },
      codeTtlSec: e.SMS_CODE_TTL_SEC,
      resetCodeTtlSec: e.SMS_RESET_CODE_TTL_SEC,
      maxTries: e.SMS_MAX_TRIES,
      resendCooldownSec: e.SMS_RESEND_COOLDOWN_SEC,
      perPhonePerHour: e.SMS_PER_PHONE_PER_HOUR,
      perIpPerHour: e.SMS_PER_IP_PER_HOUR,
      perMemberPerHour: e.SMS_PER_MEMBER_PER_HOUR,
    },
    login: {
      maxAttempts: e.LOGIN_MAX_ATTEMPTS,
      windowSec: e.LOGIN_WINDOW_SEC,
      maxPerIp: e.LOGIN_MAX_FAILURES_PER_IP,
      globalPerMin: e.LOGIN_GLOBAL_FAILURES_PER_MIN,
      slowDownAfter: e.LOGIN_SLOWDOWN_AFTER,
      slowDownMaxMs: e.LOGIN_SLOWDOWN_MAX_MS,
    },
    lookupPerIpPerHour: e.LOOKUP_PER_IP_PER_HOUR,
    stepUpMaxFailures: e.STEP_UP_MAX_FAILURES,
  };
}

/** SIGNER_URL and SIGNER_TOKEN (DECISIONS §18); production's need of a token is checked at start (startup.ts). */
function signerConfig(e: ParsedEnv): Config['signer'] {
  return { url: e.SIGNER_URL ?? `http://127.0.0.1:${e.SIGNER_PORT}`, token: e.SIGNER_TOKEN };
}

/** The operator's business details (GET /api/v1/company); a blank value is "not configured". */
function companyConfig(e: ParsedEnv): CompanyInfo {
  return {
    name: e.COMPANY_NAME?.trim() || null,
    ceo: e.COMPANY_CEO?.trim() || null,
    regNo: e.COMPANY_REG_NO?.trim() || null,
    vaspNo: e.COMPANY_VASP_NO?.trim() || null,
    support: e.COMPANY_SUPPORT?.trim() || null,
  };
}

/** The identity-level settings (DECISIONS §19); the provider defaults to console outside production. */
function kycConfig(e: ParsedEnv, isProduction: boolean): Config['kyc'] {
  return {
    provider: e.KYC_PROVIDER ?? (isProduction ? 'http' : 'console'),
    providerUrl: e.KYC_PROVIDER_URL,
    providerKey: e.KYC_PROVIDER_KEY,
    docKey: e.KYC_DOC_KEY,
    tradeLevel: e.KYC_TRADE_LEVEL,
    level1DailyKrw: e.KYC1_DAILY_KRW,
    requestsPerHour: e.KYC_REQUESTS_PER_HOUR,
    verifyPerHour: e.KYC_VERIFY_PER_HOUR,
    documentsPerDay: e.KYC_DOCUMENTS_PER_DAY,
  };
}

/** The trade protocol's timers and buyer limits (DECISIONS §11). */
function ordersConfig(e: ParsedEnv): Config['orders'] {
  return {
    paymentWindowSec: e.ORDER_PAYMENT_WINDOW_SEC,
    disputeAfterSec: e.ORDER_DISPUTE_AFTER_SEC,
    releaseWindowSec: e.ORDER_RELEASE_WINDOW_SEC,
    maxLivePerBuyer: e.MAX_LIVE_ORDERS_PER_BUYER,
    buyerCancelsPerDay: e.BUYER_CANCELS_PER_DAY,
    timerIntervalMs: e.ORDER_TIMER_INTERVAL_MS,
  };
}

/** Parses the environment once into a Config. Throws a readable error on an invalid value. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const msg = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid configuration: ${msg}`);
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === 'production';
  return {
    nodeEnv: e.NODE_ENV,
    isProduction,
    host: e.HOST,
    port: e.PORT,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    pgliteInMemory: false,
    redisUrl: e.REDIS_URL,
    seedDemo: e.SEED_DEMO,
    operator:
      e.OPERATOR_LOGIN_ID && e.OPERATOR_PASSWORD
        ? { loginId: e.OPERATOR_LOGIN_ID, password: e.OPERATOR_PASSWORD }
        : undefined,
    ...identityConfig(e, isProduction),
    prices: { provider: e.PRICE_PROVIDER, file: e.PRICE_FILE, upstreamUrl: e.PRICE_UPSTREAM_URL },
    company: companyConfig(e),
    ...chainConfig(e),
    tradeFeeBps: e.TRADE_FEE_BPS,
    orders: ordersConfig(e),
    tradeListCacheMs: e.TRADE_LIST_CACHE_MS,
    bestListingsRefreshMs: e.BEST_LISTINGS_REFRESH_MS,
    keptCountsFoldMs: e.KEPT_COUNTS_FOLD_MS,
    reservesSnapshotHours: e.RESERVES_SNAPSHOT_HOURS,
    retention: {
      years: e.RETENTION_YEARS,
      jobIntervalMs: e.RETENTION_JOB_INTERVAL_MS,
      batch: e.RETENTION_BATCH,
    },
    ledgerCheck: {
      intervalMs: e.LEDGER_CHECK_INTERVAL_MS,
      fullHours: e.LEDGER_CHECK_FULL_HOURS,
      settleMs: e.LEDGER_CHECK_SETTLE_MS,
      chunk: e.LEDGER_CHECK_CHUNK,
    },
    pgPreparedStatements: e.PG_PREPARED_STATEMENTS,
    jwtSecret: e.JWT_SECRET,
    accessTokenTtlSec: e.ACCESS_TOKEN_TTL_SEC,
    refreshTokenTtlSec: e.REFRESH_TOKEN_TTL_SEC,
    corsOrigin: e.CORS_ORIGIN,
    // TRUST_PROXY=1 (the older switch) meant "one load balancer in front": one hop. TRUST_PROXY_HOPS wins.
    trustProxyHops: e.TRUST_PROXY_HOPS ?? (e.TRUST_PROXY ? 1 : 0),
    webDistDir: e.WEB_DIST_DIR,
    docsPublic: e.DOCS_PUBLIC,
    shutdownGraceSec: e.SHUTDOWN_GRACE_SEC,
    metricsToken: e.METRICS_TOKEN,
    idempotencyMaxPerMemberDay: e.IDEMPOTENCY_MAX_PER_MEMBER_DAY,
    tradeRoom: {
      vapid: { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY, subject: e.VAPID_SUBJECT },
      messagesPerMin: e.CHAT_MESSAGES_PER_MIN,
      imagesPerHour: e.CHAT_IMAGES_PER_HOUR,
      heartbeatSec: e.EVENTS_HEARTBEAT_SEC,
      backlogSec: e.EVENTS_BACKLOG_SEC,
      maxStreamsPerMember: e.EVENTS_MAX_STREAMS_PER_MEMBER,
    },
    kyc: kycConfig(e, isProduction),
    logLevel: e.LOG_LEVEL,
  };
}
