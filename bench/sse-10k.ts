// 10,000 live event streams on one API instance (issue 27): memory per stream and event fan-out latency.
// The API (PostgreSQL when DATABASE_URL is set, else in-memory PGlite) serves BENCH_STREAMS streams of
// GET /api/v1/events on loopback, one per member, opened by a child process (bench/sse-10k-clients.mjs) so this
// process holds only the server. Memory: heap and RSS after three full GCs, before and with every stream open.
// Fan-out: events are committed in member_events (the real path: trigger -> NOTIFY -> the bus's LISTEN
// connection -> the hub -> each stream's socket), each carrying `sent` (this process's clock just before the
// commit); the child records when each arrived. Rounds: BENCH_ROUNDS rounds of one event to each of 1,000
// random members (one statement, 1,000 rows, one NOTIFY since 028), then 3 bursts of one event to every stream, then a
// trade-like load: one order `change` row (6 parts, 2 members + operators) per 5 ms for 5 s.
// Run: node --expose-gc --import tsx bench/sse-10k.ts   (BENCH_STREAMS=10000; raises ulimit -n itself)
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { sql } from 'kysely';
import { createMember } from '../apps/api/test/fixtures.ts';
import { createTestApp } from '../apps/api/test/helpers.ts';

const N = Number(process.env.BENCH_STREAMS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const NEED_FDS = N + 2_000;

// Each process needs a descriptor per socket: re-run under a raised soft limit when it is too low.
const fdLimit = Number(execFileSync('sh', ['-c', 'ulimit -n']).toString().trim());
if (fdLimit < NEED_FDS && !process.env.SSE10K_RAISED) {
  const args = process.execArgv.concat(process.argv.slice(1)).map((a) => `'${a.replace(/'/g, "'\\''")}'`);
  const r = spawnSync('sh', ['-c', `ulimit -n ${NEED_FDS} && exec '${process.execPath}' ${args.join(' ')}`], {
    stdio: 'inherit',
    env: { ...process.env, SSE10K_RAISED: '1' },
  });
  process.exit(r.status ?? 1);
}

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc --import tsx bench/sse-10k.ts');
const now = () => performance.timeOrigin + performance.now();

// heartbeats every 10 minutes: a heartbeat is a write to every stream (10,000 writes), which would otherwise land
// in a measured phase now and then and count as fan-out CPU
const t = await createTestApp({ EVENTS_HEARTBEAT_SEC: '600' });
const load0 = loadavg();
const { db } = t.app.deps;
const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
const members: { id: number; token: string }[] = [];
// a random phone number can repeat among 10,000 (members_phone_key): that member is made again
const member = async () => {
  for (let tries = 1; ; tries++) {
    try {
      return await createMember(t, { kycLevel: 0 });
    } catch (err) {
      if (tries >= 5) throw err;
    }
  }
};
for (let i = 0; i < N; i += 50) {
  const batch = await Promise.all(Array.from({ length: Math.min(50, N - i) }, member));
  members.push(...batch.map((m) => ({ id: m.id, token: m.token })));
}

async function settle() {
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((r) => setTimeout(r, 300));
  }
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss };
}

type Child = ReturnType<typeof spawn>;
const lines = new Map<Child, ((line: string) => void)[]>();
function clients(): Child {
  const child = spawn(
    'sh',
    ['-c', `ulimit -n ${NEED_FDS} 2>/dev/null; exec '${process.execPath}' bench/sse-10k-clients.mjs`],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  let buf = '';
  lines.set(child, []);
  child.stdout?.on('data', (c: Buffer) => {
    buf += String(c);
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      lines.get(child)?.shift()?.(line);
    }
  });
  return child;
}
const nextLine = (c: Child) => new Promise<string>((r) => lines.get(c)?.push(r));

// one warm-up stream so route, parser and hub code are compiled before the baseline
const warm = clients();
const warmReady = nextLine(warm);
warm.stdin?.write(`${JSON.stringify({ url, tokens: [members[0]?.token] })}\n`);
await warmReady;
warm.stdin?.end();
await new Promise((r) => warm.on('exit', r));
await new Promise((r) => setTimeout(r, 500));

const before = await settle();
const child = clients();
const ready = nextLine(child);
const t0 = Date.now();
child.stdin?.write(`${JSON.stringify({ url, tokens: members.map((m) => m.token) })}\n`);
await ready;
const openMs = Date.now() - t0;
await new Promise((r) => setTimeout(r, 1000));
const during = await settle();

async function report(): Promise<number[]> {
  const line = nextLine(child);
  child.stdin?.write('report\n');
  return (JSON.parse(await line) as { latencies: number[] }).latencies.sort((a, b) => a - b);
}
const pct = (xs: number[], p: number) =>
  xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One event to each member of `ids` in one statement (ids.length rows; one NOTIFY of id runs since 028). */
async function fanOut(ids: number[]) {
  await sql`insert into member_events (member_id, type, data)
    select m, 'order', jsonb_build_object('id', 0, 'sent', ${now()}::float8) from unnest(${ids}::bigint[]) m`.execute(
    db,
  );
}

const results: string[] = [];
async function measure(name: string, run: () => Promise<number>) {
  await report();
  const cpu0 = process.cpuUsage();
  const expected = await run();
  let got: number[] = [];
  for (let i = 0; i < 100; i++) {
    await wait(200);
    got = got.concat(await report());
    if (got.length >= expected) break;
  }
  got.sort((a, b) => a - b);
  results.push(
    `${name}: ${got.length}/${expected} events, p50 ${pct(got, 50).toFixed(1)} ms, p99 ${pct(got, 99).toFixed(1)} ms, max ${(got.at(-1) ?? NaN).toFixed(1)} ms`,
  );
  // this process's CPU (the API: bus, hub, sockets; plus the sender's statements) per event delivered
  const cpu = process.cpuUsage(cpu0);
  const ms = (cpu.user + cpu.system) / 1000;
  results.push(
    `  API process CPU ${ms.toFixed(0)} ms, ${(ms / Math.max(1, got.length)).toFixed(3)} ms per event`,
  );
}

const ids = members.map((m) => m.id);
await measure(`${ROUNDS} rounds x 1,000 random streams (500 ms apart)`, async () => {
  for (let r = 0; r < ROUNDS; r++) {
    const pick = new Set<number>();
    while (pick.size < Math.min(1000, N)) pick.add(ids[Math.floor(Math.random() * N)] ?? 0);
    await fanOut([...pick]);
    await wait(500);
  }
  return ROUNDS * Math.min(1000, N);
});
await measure(`3 bursts x every stream (${N} events each, 2 s apart)`, async () => {
  for (let r = 0; r < 3; r++) {
    await fanOut(ids);
    await wait(2000);
  }
  return 3 * N;
});
await measure('trade-like: one order change row (buyer + seller) every 5 ms for 5 s', async () => {
  const end = Date.now() + 5000;
  let k = 0;
  while (Date.now() < end) {
    const a = ids[k++ % N] ?? 0;
    const b = ids[(k * 7919) % N] ?? 0;
    await sql`insert into member_events (member_id, members, type, data) values (null, ${[a, b]}::bigint[], 'change',
      jsonb_build_object('parts', jsonb_build_array(
        jsonb_build_object('m', ${a}::bigint, 't', 'order', 'd', jsonb_build_object('id', 0, 'sent', ${now()}::float8)),
        jsonb_build_object('m', ${b}::bigint, 't', 'order', 'd', jsonb_build_object('id', 0, 'sent', ${now()}::float8)))))`.execute(
      db,
    );
    await wait(5);
  }
  return 2 * k;
});

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
const kb = (b: number) => `${(b / 1024).toFixed(1)} kB`;
process.stdout.write(
  [
    `streams open: ${N} (every one answered 200; opened in ${(openMs / 1000).toFixed(1)} s), ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`,
    `heapUsed: ${mb(before.heap)} -> ${mb(during.heap)} (+${kb((during.heap - before.heap) / N)} per stream)`,
    `rss:      ${mb(before.rss)} -> ${mb(during.rss)} (+${kb((during.rss - before.rss) / N)} per stream)`,
    ...results,
    `load average (1 min) at start / end: ${load0[0]?.toFixed(1)} / ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores`,
    '',
  ].join('\n'),
);
child.stdin?.end();
await new Promise((r) => child.on('exit', r));
await t.close();
