// `npm run cluster` (DECISIONS §14): N API instances (default 2) behind HAProxy, health-checked on
// /readyz, on one PostgreSQL and Redis, all on loopback. Ctrl-C drains the instances and stops everything.
//
//   npm run cluster                         # 2 instances, the balancer on PORT (8080), a fresh database
//   CLUSTER_INSTANCES=3 npm run cluster     # or: npm run cluster -- --instances 3
//
// DATABASE_URL (default: a fresh database `p2p_cluster_*` on postgres://postgres@127.0.0.1:5432, dropped at
// the end unless CLUSTER_KEEP_DB=1), REDIS_URL (default redis://127.0.0.1:6379 when it answers), JWT_SECRET
// and XPUB_<COIN> (generated for this run when unset, so every instance signs and derives alike: none of
// them may fall back to its own DATA_DIR). Every other variable (OPERATOR_*, SEED_DEMO, NODE_ENV...) is
// passed to the instances; SEED_DEMO and the operator go to the first instance, which starts alone so
// migrations and seeding run once. Runs under tsx (the package script does: `node --import tsx`).
//
// The chaos test (apps/api/test/chaos.test.ts) starts its clusters with startCluster() from this file.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HDKey } from '@scure/bip32';
import pg from 'pg';
import { COIN_SPECS, COINS } from '../packages/contract/src/coins.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The HAProxy binary (Debian puts it in /usr/sbin, often not on a user's PATH), or null when absent. */
export function findHaproxy() {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  for (const d of dirs) {
    const p = join(d, 'haproxy');
    if (d && existsSync(p)) return p;
  }
  return null;
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => res(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

/** Watch-only account keys (xpubs) of a random development seed: one per coin, for every instance alike. */
export function devXpubs() {
  const root = HDKey.fromMasterSeed(randomBytes(32));
  return Object.fromEntries(
    COINS.map((c) => [`XPUB_${c}`, root.derive(COIN_SPECS[c].accountPath.mainnet).publicExtendedKey]),
  );
}

/** The HAProxy configuration: round robin over the instances, a server is taken out after two failed /readyz. */
export function haproxyConfig({ port, statsPort, servers }) {
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout http-keep-alive 10s',
    // A connection refused by a dead instance is retried once on another one; a request already sent is
    // never retried (HAProxy's default retry-on is connect-failure), so a POST never runs twice.
    '  retries 1',
    '  option redispatch',
    'frontend api',
    `  bind 127.0.0.1:${port}`,
    // The API trusts exactly one hop (TRUST_PROXY_HOPS=1, DECISIONS §21): the header it reads must be the
    // address that connected here and nothing a client wrote. `option forwardfor` would append to the
    // client's own header; this replaces it.
    '  http-request set-header X-Forwarded-For %[src]',
    '  default_backend instances',
    'backend instances',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    '  default-server inter 500ms fall 2 rise 2',
    ...servers.map((s) => `  server ${s.name} 127.0.0.1:${s.port} check`),
    'listen stats',
    `  bind 127.0.0.1:${statsPort}`,
    '  stats enable',
    '  stats uri /stats',
    '',
  ].join('\n');
}

async function waitFor(what, check, timeoutMs, isAlive = () => true) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (!isAlive()) throw new Error(`${what}: the process exited`);
    if (Date.now() > until) throw new Error(`${what}: not ready after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

const answers200 = (url) => fetch(url, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok);

async function redisAnswers(url) {
  const { Redis } = await import('ioredis');
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

function pipeLines(stream, prefix, log) {
  let buf = '';
  stream.on('data', (d) => {
    buf += d.toString();
    const lines = buf.split('\n');
    buf = lines.pop() ?? '';
    for (const l of lines) if (l) log(`${prefix} ${l}`);
  });
}

/**
 * Starts HAProxy with haproxyConfig() in front of `servers` ([{name, port}] on 127.0.0.1) and resolves once
 * every server passed its /readyz checks. `port` of the balancer (a free one when 0/absent), `dir` for its
 * configuration file, `log` a line sink. Resolves to { url, statsUrl, child, serverStates(), stop() }; throws
 * when HAProxy is missing, refuses the configuration or a server does not come up within 20 s.
 */
export async function startHaproxy({ servers, port, dir, log = () => undefined }) {
  const haproxy = findHaproxy();
  if (!haproxy) throw new Error('haproxy not found: apt-get install -y haproxy');
  const lbPort = port || (await freePort());
  const statsPort = await freePort();
  mkdirSync(dir, { recursive: true });
  const cfg = join(dir, 'haproxy.cfg');
  writeFileSync(cfg, haproxyConfig({ port: lbPort, statsPort, servers }));
  const check = spawnSync(haproxy, ['-c', '-q', '-f', cfg], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`haproxy refused its configuration: ${check.stderr}`);
  const child = spawn(haproxy, ['-db', '-f', cfg], { stdio: ['ignore', 'pipe', 'pipe'] });
  pipeLines(child.stdout, '[haproxy]', log);
  pipeLines(child.stderr, '[haproxy]', log);
  const url = `http://127.0.0.1:${lbPort}`;
  const statsUrl = `http://127.0.0.1:${statsPort}/stats`;
  const serverStates = async () => {
    const csv = await (await fetch(`${statsUrl};csv`)).text();
    const out = {};
    for (const line of csv.split('\n')) {
      const f = line.split(',');
      if (f[0] === 'instances' && f[1] !== 'BACKEND') out[f[1]] = f[17];
    }
    return out;
  };
  const stop = async () => {
    // A Ctrl-C in the terminal reaches HAProxy too: it may be gone already (then exitCode stays null and
    // signalCode is set, and waiting for its 'exit' would wait forever).
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await gone;
  };
  try {
    // Ready when every server passed its health checks, so the first requests spread over all of them.
    await waitFor(
      'haproxy',
      async () => Object.values(await serverStates()).filter((s) => s === 'UP').length === servers.length,
      20_000,
      () => child.exitCode === null,
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, statsUrl, child, serverStates, stop };
}

/**
 * Starts a cluster and resolves once the balancer answers /readyz. Options: `instances` (2), `port` of the
 * balancer (a free one when 0/absent), `databaseUrl` (else a fresh database, dropped at stop() unless
 * keepDb), `redisUrl` (null = none), `env` (extra variables for every instance), `log` (a line sink).
 * Resolves to { url, statsUrl, databaseUrl, env, instances: [{ name, port, url, child }], serverStates(),
 * stop() }. Throws when HAProxy is missing or an instance does not come up.
 */
export async function startCluster(opts = {}) {
  const haproxy = findHaproxy();
  if (!haproxy) throw new Error('haproxy not found: apt-get install -y haproxy');
  const log = opts.log ?? ((l) => process.stdout.write(`${l}\n`));
  const n = opts.instances ?? 2;
  const work = mkdtempSync(join(tmpdir(), 'p2p-cluster-'));
  let dropDb = null;
  let databaseUrl = opts.databaseUrl;
  if (!databaseUrl) {
    const base = 'postgres://postgres@127.0.0.1:5432/postgres';
    const name = `p2p_cluster_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const u = new URL(base);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    if (!opts.keepDb) {
      dropDb = async () => {
        const c = new pg.Client({ connectionString: base });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      };
    }
    log(`cluster: fresh database ${name}${opts.keepDb ? ' (kept)' : ' (dropped at the end)'}`);
  }
  const shared = {
    NODE_ENV: 'development',
    ...opts.env,
    DATABASE_URL: databaseUrl,
    ...(opts.redisUrl ? { REDIS_URL: opts.redisUrl } : {}),
    JWT_SECRET: opts.env?.JWT_SECRET ?? randomBytes(32).toString('hex'),
    ...(COINS.every((c) => opts.env?.[`XPUB_${c}`]) ? {} : devXpubs()),
    HOST: '127.0.0.1',
    // HAProxy is the one hop in front: it sets X-Forwarded-For to the connecting address, and the per-IP
    // limits must see that client, not HAProxy (DECISIONS §21).
    TRUST_PROXY_HOPS: '1',
  };
  for (const c of COINS) if (opts.env?.[`XPUB_${c}`]) shared[`XPUB_${c}`] = opts.env[`XPUB_${c}`];

  const instances = [];
  const startInstance = async (i) => {
    const name = `api${i + 1}`;
    const port = await freePort();
    const env = { ...process.env, ...shared, PORT: String(port), DATA_DIR: join(work, name) };
    if (i > 0) {
      // Seeding and the operator belong to the first instance only.
      delete env.SEED_DEMO;
      delete env.OPERATOR_LOGIN_ID;
      delete env.OPERATOR_PASSWORD;
    }
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    pipeLines(child.stdout, `[${name}]`, log);
    pipeLines(child.stderr, `[${name}]`, log);
    const inst = { name, port, url: `http://127.0.0.1:${port}`, child, exited: false };
    child.once('exit', () => {
      inst.exited = true;
    });
    instances.push(inst);
    await waitFor(
      `${name}`,
      () => answers200(`${inst.url}/readyz`),
      60_000,
      () => !inst.exited,
    );
    log(`cluster: ${name} ready on ${inst.url} (pid ${child.pid})`);
    return inst;
  };

  let lb = null;
  const stop = async () => {
    for (const i of instances) if (!i.exited) i.child.kill('SIGTERM');
    await Promise.all(
      instances.map((i) => (i.exited ? undefined : new Promise((r) => i.child.once('exit', r)))),
    );
    await lb?.stop();
    await dropDb?.().catch((err) => log(`cluster: could not drop the database: ${err.message}`));
    rmSync(work, { recursive: true, force: true });
  };

  try {
    await startInstance(0);
    await Promise.all(Array.from({ length: n - 1 }, (_, k) => startInstance(k + 1)));
    lb = await startHaproxy({ servers: instances, port: opts.port, dir: work, log });
    const { url, statsUrl, serverStates } = lb;
    log(`cluster: ${n} instances behind HAProxy on ${url} (stats ${statsUrl})`);
    return { url, statsUrl, databaseUrl, env: shared, instances, serverStates, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function main() {
  const argIdx = process.argv.indexOf('--instances');
  const n = Number(argIdx > 0 ? process.argv[argIdx + 1] : (process.env.CLUSTER_INSTANCES ?? 2));
  if (!Number.isInteger(n) || n < 1) throw new Error('--instances must be a positive integer');
  let redisUrl = process.env.REDIS_URL ?? null;
  if (!redisUrl && (await redisAnswers('redis://127.0.0.1:6379'))) redisUrl = 'redis://127.0.0.1:6379';
  if (!redisUrl)
    process.stdout.write('cluster: no Redis answers; limits and the price cache stay per instance\n');
  const env = { ...process.env };
  for (const k of ['PORT', 'DATABASE_URL', 'REDIS_URL', 'DATA_DIR', 'HOST']) delete env[k];
  // HAProxy probes /readyz twice a second per instance: request logs at info would be mostly probes.
  env.LOG_LEVEL ??= 'warn';
  const cluster = await startCluster({
    instances: n,
    port: Number(process.env.PORT ?? 8080),
    databaseUrl: process.env.DATABASE_URL,
    redisUrl,
    keepDb: process.env.CLUSTER_KEEP_DB === '1',
    env,
  });
  process.stdout.write(`cluster: open ${cluster.url} ; Ctrl-C stops all\n`);
  let stopping = false;
  const onSignal = () => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('cluster: stopping (instances drain first)\n');
    cluster.stop().then(
      () => process.exit(0),
      (err) => {
        process.stderr.write(`cluster: stop failed: ${err.message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  for (const i of cluster.instances) {
    i.child.once('exit', (code, signal) => {
      if (!stopping)
        process.stdout.write(`cluster: ${i.name} exited (${signal ?? code}); HAProxy routes around it\n`);
    });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    process.stderr.write(`cluster: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
