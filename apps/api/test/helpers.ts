import { type App, type BuildOptions, buildApp } from '../src/app.ts';
import { testXpubEnv } from '../src/chains/test-keys.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { openDb } from '../src/db/client.ts';
import { checkLedger } from '../src/ledger/check.ts';
import { freshDatabase } from './infra.ts';
import { migratedPgliteSnapshot } from './migrated-db.ts';

export interface TestApp {
  app: App;
  config: Config;
  /** Calls the API through inject; returns status and parsed JSON body. */
  call: <T = unknown>(
    method: string,
    url: string,
    opts?: { body?: unknown; token?: string; ip?: string },
  ) => Promise<{
    status: number;
    body: { returnCode: number; returnMessage: string; returnData: T };
  }>;
  /** Asserts the ledger invariants (DECISIONS §4); throws listing every problem. */
  assertLedger: () => Promise<void>;
  close: () => Promise<void>;
}

/** DECISIONS §19's knobs turned off (each test file about them passes PRODUCTION_TRUST instead). */
export const TRUST_OFF = {
  BANK_VERIFY_REQUIRED: '0',
  WITHDRAW_HOLD_SEC: '0',
  WITHDRAW_HOLD_NEW_SEC: '0',
  TRAVEL_RULE_MIN_KRW: String(Number.MAX_SAFE_INTEGER),
};

/** DECISIONS §19's defaults, as production runs them. */
export const PRODUCTION_TRUST = {
  BANK_VERIFY_REQUIRED: '1',
  WITHDRAW_HOLD_SEC: '86400',
  WITHDRAW_HOLD_NEW_SEC: '259200',
  TRAVEL_RULE_MIN_KRW: '1000000',
};

/**
 * Builds the app on a fresh database: a new PostgreSQL database (dropped at close) when DATABASE_URL is
 * set, else an in-memory PGlite. `env` overrides configuration variables.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  opts: BuildOptions = {},
): Promise<TestApp> {
  const base = process.env.DATABASE_URL;
  const fresh = base ? await freshDatabase(base) : null;
  const databaseUrl = fresh?.url;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SEED_DEMO: '0',
    PRICE_PROVIDER: 'static',
    // The public TEST keys (DECISIONS §18): a signer started by test/signer.ts spends what these derive.
    ...testXpubEnv(
      env.CHAIN_NETWORK === 'testnet' || env.CHAIN_NETWORK === 'regtest' ? env.CHAIN_NETWORK : 'mainnet',
    ),
    // DECISIONS §19's 1원 check, withdrawal hold and Travel Rule are off where a test is not about them; their
    // own tests (modules/bank, wallets/holds, wallets/travel-rule, e2e/bank) pass the production defaults.
    ...TRUST_OFF,
    // the ledger check job: a test runs its ticks by hand (ledgerCheckTick)
    LEDGER_CHECK_INTERVAL_MS: '0',
    ...env,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  if (!databaseUrl) config.pgliteInMemory = true;
  const dbh = await openDb({
    databaseUrl,
    dataDir: config.dataDir,
    inMemory: !databaseUrl,
    loadDataDir: databaseUrl ? undefined : await migratedPgliteSnapshot(),
  });
  const app = await buildApp(config, { serveWeb: false, ...opts, dbh });
  await app.ready();

  const call: TestApp['call'] = async (method, url, o = {}) => {
    const res = await app.inject({
      method: method as 'GET',
      url,
      payload: o.body === undefined ? undefined : JSON.stringify(o.body),
      headers: {
        ...(o.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
      },
      remoteAddress: o.ip ?? '127.0.0.1',
    });
    return { status: res.statusCode, body: res.json() };
  };

  return {
    app,
    config,
    call,
    assertLedger: async () => {
      const r = await checkLedger(dbh.db, app.deps.invariants);
      if (!r.ok) throw new Error(`ledger invariants broken:\n${r.problems.join('\n')}`);
    },
    close: async () => {
      await app.close();
      await dbh.close();
      await fresh?.drop();
    },
  };
}

/** True when the suite runs against a PostgreSQL server (concurrency tests need real connections). */
export const onPostgres = Boolean(process.env.DATABASE_URL);
