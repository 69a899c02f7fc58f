import { randomUUID } from 'node:crypto';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Coin } from '@p2p/contract';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import helmet from 'helmet';
import { Redis } from 'ioredis';
import { installChainKeys, resolveChainKeys } from './chains/index.ts';
import type { ChainReader } from './chains/reader.ts';
import { createChainReaders } from './chains/readers.ts';
import { signerClientFromConfig } from './chains/signer-client.ts';
import type { Config } from './config.ts';
import { type DbHandle, openDb } from './db/client.ts';
import { startKeptCountsFold } from './db/kept-counts.ts';
import { migrate } from './db/migrate.ts';
import type { AppDeps } from './deps.ts';
import { createGuards } from './http/auth.ts';
import { trustHops } from './http/client-address.ts';
import { installErrorHandler } from './http/error-handler.ts';
import { installIdempotency } from './http/idempotency.ts';
import { createDocTransform, finishDocument } from './http/openapi.ts';
import { OPS_API_PREFIX, operatorApi } from './http/operator-api.ts';
import { createAccessTokens, resolveJwtSecret } from './http/tokens.ts';
import { isWebRoute, serveWebApp } from './http/web.ts';
import { companyRoutes } from './modules/company/index.ts';
import { createDepositWatchers, type DepositWatchers, depositOpsRoutes } from './modules/deposits/index.ts';
import { healthRoutes, type Lifecycle } from './modules/health/index.ts';
import { identityRoutes } from './modules/identity/index.ts';
import { kycOpsRoutes, kycRoutes } from './modules/kyc/index.ts';
import { listingOpsRoutes, listingRoutes, startTradeListCache } from './modules/listings/index.ts';
import { installMetrics } from './modules/metrics/index.ts';
import { createPushNetwork, type PushNetwork } from './modules/notifications/index.ts';
import { operatorOpsRoutes, startLedgerCheckJob } from './modules/operators/index.ts';
import { escrowInvariants, orderOpsRoutes, orderRoutes, startOrderTimers } from './modules/orders/index.ts';
import { pricesRoutes } from './modules/prices/index.ts';
import { recordRoutes } from './modules/records/index.ts';
import {
  reservesOpsRoutes,
  reservesReader,
  reservesRoutes,
  startReserveSnapshots,
} from './modules/reserves/index.ts';
import { tradeRoomRoutes } from './modules/trade-room/index.ts';
import { walletOpsRoutes, walletRoutes } from './modules/wallets/index.ts';
import {
  type CoinPayout,
  chainChecks,
  createPayouts,
  type PayoutSigner,
  type Payouts,
  remotePayoutSigner,
  withdrawalOpsRoutes,
} from './modules/withdrawals/index.ts';
import { assertProductionSafe, runStartupTasks } from './startup.ts';

export type App = FastifyInstance & {
  deps: AppDeps;
  lifecycle: Lifecycle;
  depositWatchers: DepositWatchers;
  payouts: Payouts;
};

export interface BuildOptions {
  /** An already opened database (tests); otherwise opened from the config. */
  dbh?: DbHandle;
  /** Skip operator creation and demo seeding (tests that want an empty database). */
  skipStartupTasks?: boolean;
  /** Serve the built web app when present (default true). */
  serveWeb?: boolean;
  /** Where the log goes instead of stdout (tests read it to prove what never gets logged). */
  logStream?: NodeJS.WritableStream;
  /** Chain readers to watch instead of those made from CHAIN_RPC_<COIN> (tests' in-memory chains). */
  chainReaders?: Partial<Record<Coin, ChainReader>>;
  /** Start the deposit watchers' polling (default true; tests may drive `scan()` themselves). */
  startWatchers?: boolean;
  /**
   * The agents Web Push goes out through (default: the system resolver behind the address guard). Tests pass a
   * guarded network whose resolver they control, with a local server standing in for a public push service.
   */
  pushNetwork?: PushNetwork;
  /** The signer the payout workers ask (DECISIONS §18); null = none: every coin is paid by hand. */
  payoutSigner?: PayoutSigner | null;
  /** Payers to use instead of those made from CHAIN_RPC_<COIN> (tests). */
  payoutPayers?: Partial<Record<Coin, CoinPayout>>;
  /** Start the payout workers' passes (default true; tests may drive `pass()` themselves). */
  startPayouts?: boolean;
}

/**
 * The composition root (DESIGN "Layout"): opens and migrates the database, wires plugins, guards and
 * every module's routes. `server.ts` only listens. Throws when the configuration is unusable.
 */
export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<App> {
  assertProductionSafe(config);
  const dbh =
    opts.dbh ??
    (await openDb({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      inMemory: config.pgliteInMemory,
      preparedStatements: config.pgPreparedStatements,
    }));
  await migrate(dbh);

  const app = Fastify(fastifyOptions(config, opts)).withTypeProvider<ZodTypeProvider>();
  dbh.onConnectionError((err) => app.log.warn({ err }, 'database connection lost; the pool dropped it'));

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  // Before any route: routes with `config: { idempotent: true }` get the Idempotency-Key hooks (DECISIONS §15).
  installIdempotency(app, dbh.db, { maxPerMemberDay: config.idempotencyMaxPerMemberDay });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // DECISIONS §13: nothing that may depend on the caller is stored by a browser or proxy. A route that set
    // its own policy (static web files, a public list with a short max-age) keeps it.
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });

  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, lazyConnect: false })
    : null;
  const tokens = createAccessTokens(resolveJwtSecret(config), config.accessTokenTtlSec);
  const deps: AppDeps = {
    config,
    dbh,
    db: dbh.db,
    tokens,
    guards: createGuards(dbh.db, tokens),
    redis,
    invariants: [],
    chainChecks: [],
    tradeListCache: await startTradeListCache(app, dbh, config),
    pushNetwork: opts.pushNetwork ?? createPushNetwork(),
  };
  app.decorate('deps', deps);
  const lifecycle: Lifecycle = { draining: false };
  app.decorate('lifecycle', lifecycle);
  app.decorateRequest('auth', null);

  installSecurityHeaders(app);
  await app.register(cors, { origin: config.corsOrigin.split(',').map((o) => o.trim()), credentials: false });
  await app.register(swagger, {
    openapi: {
      info: { title: 'P2P coin marketplace API', version: '1.0.0', description: 'SPEC §7 and DECISIONS §10' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    // DECISIONS §15: operationId, summary, bearer security and error answers of every operation (http/openapi.ts).
    transform: createDocTransform(deps.guards),
    transformObject: finishDocument,
  });
  // The API map helps an attacker more than a member: production serves it only when DOCS_PUBLIC=1.
  if (!config.isProduction || config.docsPublic) await app.register(swaggerUi, { routePrefix: '/docs' });

  installMetrics(app, deps);
  await app.register(healthRoutes, { ...deps, lifecycle });
  await app.register(identityRoutes, deps);
  await app.register(kycRoutes, deps);
  // Wiring (DESIGN "Ownership"): what the modules need from the process is set up here, never as a side
  // effect of registering a route file. The chain keys first: wallets (and the demo seed) derive deposit
  // addresses through them; in production a missing XPUB_<COIN> stops the start here.
  installChainKeys(resolveChainKeys(config, app.log));
  // The ledger check job with the orders module's escrow invariants (GET /ops/api/v1/ledger/check, the tests).
  startLedgerCheck(app, deps);
  await app.register(walletRoutes, deps);
  await app.register(listingRoutes, deps);
  await app.register(orderRoutes, deps);
  // DECISIONS §11, §14: every instance runs the order timers; closing the app stops them.
  app.addHook('onClose', startOrderTimers(dbh.db, config.orders.timerIntervalMs, app.log));
  await app.register(recordRoutes, deps);
  await app.register(pricesRoutes, deps);
  await app.register(companyRoutes, deps);
  await app.register(tradeRoomRoutes, deps);
  const { depositWatchers, payouts } = startChainWork(app, deps, opts);
  // DECISIONS §20: proof of reserves; the nodes' balances (signed by the signer), else the declared figure.
  const readReserves = reservesReader(deps, app.log);
  await app.register(reservesRoutes, deps);
  app.addHook('preClose', startReserveSnapshots(dbh.db, readReserves, config.reservesSnapshotHours, app.log));
  // The operator API (DECISIONS §10): one plugin whose hook guards every route under the prefix.
  const opsRouteFiles = [operatorOpsRoutes(deps), walletOpsRoutes(deps), listingOpsRoutes(deps)];
  opsRouteFiles.push(orderOpsRoutes(deps), depositOpsRoutes(deps, depositWatchers), kycOpsRoutes(deps));
  opsRouteFiles.push(reservesOpsRoutes(deps, readReserves), withdrawalOpsRoutes(deps, payouts));
  await app.register(operatorApi(deps.guards, opsRouteFiles), { prefix: OPS_API_PREFIX });
  const webServed = opts.serveWeb !== false && (await serveWebApp(app, config.webDistDir));
  app.setNotFoundHandler((request, reply) => {
    if (webServed && request.method === 'GET' && isWebRoute(request.url)) return reply.sendFile('index.html');
    return reply.status(404).send({ returnCode: 404, returnMessage: 'NOT_FOUND', returnData: null });
  });

  app.addHook('onClose', async () => {
    await redis?.quit().catch(() => undefined);
    if (!opts.dbh) await dbh.close();
  });
  if (!opts.skipStartupTasks) await runStartupTasks(deps, app.log);
  return app as unknown as App;
}

/**
 * The orders module's escrow invariants join the ledger check, which runs as a job on the instance holding its
 * lease (issue 27); the endpoint answers the job's stored result. The kept counts' fold (db/kept-counts.ts)
 * starts beside it: both are bookkeeping jobs over the whole database. Closing the app stops them.
 */
function startLedgerCheck(app: FastifyInstance, deps: AppDeps): void {
  deps.invariants.push(...escrowInvariants);
  const lc = deps.config.ledgerCheck;
  const job = { ...lc, fullEveryMs: lc.fullHours * 3_600_000, budgetMs: Math.max(1000, lc.intervalMs / 2) };
  app.addHook('onClose', startLedgerCheckJob(deps.db, deps.invariants, job, app.log));
  // Issue 27: the console summary's and the trade list's counts are kept by triggers; every instance folds.
  app.addHook('onClose', startKeptCountsFold(deps.db, deps.config.keptCountsFoldMs, app.log));
}

/** Fastify's own options: the redacting logger, request ids, the body limit, the proxy hops, the close policy. */
function fastifyOptions(config: Config, opts: BuildOptions): FastifyServerOptions {
  return {
    logger: {
      level: config.logLevel,
      ...(opts.logStream ? { stream: opts.logStream } : {}),
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          '*.password',
          '*.code',
          '*.refreshToken',
          '*.accessToken',
        ],
        censor: '[redacted]',
      },
    },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    bodyLimit: 64 * 1024,
    // Exactly the hops we run (DECISIONS §21): request.ip is the X-Forwarded-For entry that many places from
    // the right, which our own proxy wrote; anything further left is what the client claimed. 0 = the socket.
    // A function, not the number: Fastify 5 reads a numeric trustProxy as "trust nothing".
    trustProxy: config.trustProxyHops > 0 ? trustHops(config.trustProxyHops) : false,
    // On close (server.ts drains on SIGTERM): idle keep-alive sockets go at once, requests in flight finish.
    forceCloseConnections: 'idle',
  };
}

/**
 * The signer process of this configuration (SIGNER_URL / SIGNER_TOKEN, or the development signer's token under
 * DATA_DIR, written before `npm start` starts the API), or null when there is none: then no coin is paid on
 * chain and every withdrawal waits for an operator (DECISIONS §18).
 */
function defaultPayoutSigner(config: Config, log: FastifyInstance['log']): PayoutSigner | null {
  try {
    return remotePayoutSigner(signerClientFromConfig(config));
  } catch (err) {
    log.info(
      { reason: err instanceof Error ? err.message : String(err) },
      'no signer: withdrawals are paid by hand',
    );
    return null;
  }
}

/**
 * The work each instance does on the chains, off the request path (DECISIONS §17, §18): a deposit watcher and
 * a payout worker per coin with a node (the payout worker needs a signer too); a lease per coin makes one
 * instance of all active. Both are stopped before close (preClose), while the database is still open.
 */
function startChainWork(
  app: FastifyInstance,
  deps: AppDeps,
  opts: BuildOptions,
): { depositWatchers: DepositWatchers; payouts: Payouts } {
  const depositWatchers = createDepositWatchers(
    deps,
    opts.chainReaders ?? createChainReaders(deps.config, app.log),
    app.log,
    opts.startWatchers !== false,
  );
  app.decorate('depositWatchers', depositWatchers);
  app.addHook('preClose', () => depositWatchers.stop());
  const payouts = createPayouts(deps, {
    signer: opts.payoutSigner !== undefined ? opts.payoutSigner : defaultPayoutSigner(deps.config, app.log),
    log: app.log,
    autoStart: opts.startPayouts !== false,
    payers: opts.payoutPayers,
  });
  app.decorate('payouts', payouts);
  app.addHook('preClose', () => payouts.stop());
  deps.chainChecks.push(...chainChecks(deps.db, payouts, deps.config.withdrawals.coldAddress));
  return { depositWatchers, payouts };
}

/**
 * Helmet's headers on every answer (DESIGN "Stack"): the CSP of a same-origin app with inline styles and
 * blob/data images, framing refused.
 */
function installSecurityHeaders(app: FastifyInstance): void {
  // Helmet's middleware is built once: @fastify/helmet built it again on every request (parsing the CSP
  // directives each time: 3% of the API's CPU on the purchase path, bench/README.md).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        frameAncestors: ["'none'"],
      },
    },
  });
  app.addHook('onRequest', (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, (err?: unknown) => done(err instanceof Error ? err : undefined));
  });
}
