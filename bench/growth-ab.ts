/**
 * The interleaved (A/B) measuring of bench/growth.ts. Two API processes answer at once, one on the small
 * database and one on the grown one; for each endpoint both are read in alternation, so whatever else the shared
 * machine runs falls on the two sides alike and cancels in their ratio:
 *
 * - 10 connections: BENCH_PAIRS pairs of BENCH_BURST-second autocannon bursts, small then grown, grown then small
 *   (the order swaps each pair). Reported: the median of the per-pair p50s of each side, and the median of the
 *   per-pair ratios (grown p50 / small p50). autocannon's p50 is whole milliseconds; a 0 ms p50 counts as 1 ms.
 * - 1 connection (what a member feels): single requests one after the other, small and grown alternating (order
 *   swapped each pair), for BENCH_SEQ_MS milliseconds (at least 10 pairs); the p50 of each side to 0.01 ms.
 * - The bare Fastify route (bench/bare-server.mjs) one burst per endpoint: what the same load does to nothing.
 */
import http from 'node:http';
import autocannon from 'autocannon';

/** [name, path, bearer token or null]. */
export type Endpoint = [string, string, string | null];

const PAIRS = Number(process.env.BENCH_PAIRS ?? 4);
const BURST = Number(process.env.BENCH_BURST ?? 1.5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SEQ_MS = Number(process.env.BENCH_SEQ_MS ?? 3000);
/** The goal of issue 27: grown p50 within 1.5x of small. */
const GOAL = 1.5;

/** One endpoint's figures on both sides. */
export interface Row {
  name: string;
  /** Median of the per-pair p50s (ms), 10 connections. */
  smallP50: number;
  grownP50: number;
  /** Median of the per-pair ratios grown/small, 10 connections. */
  ratio: number;
  smallRps: number;
  grownRps: number;
  /** Sequential (1 connection) p50 in ms, and their ratio. */
  smallSeq: number;
  grownSeq: number;
  seqRatio: number;
  bareP50: number;
  bareRps: number;
  errors: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
}

interface Burst {
  p50: number;
  rps: number;
  errors: number;
}

async function burst(url: string, token: string | null, seconds: number): Promise<Burst> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration: seconds });
  return { p50: r.latency.p50, rps: r['2xx'] / r.duration, errors: r.non2xx + r.errors + r.timeouts };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One GET over a kept-alive connection; its time in ms (the body read to the end). */
function timedGet(url: string, token: string | null): Promise<{ ms: number; ok: boolean }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.get(
      url,
      { agent, headers: token ? { authorization: `Bearer ${token}` } : {} },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({
            ms: performance.now() - t0,
            ok: (res.statusCode ?? 500) >= 200 && (res.statusCode ?? 500) < 300,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
  });
}

/** The 1-connection pass: alternating single requests; the p50 of each side. */
async function sequential(
  s: { url: string; token: string | null },
  g: { url: string; token: string | null },
): Promise<{ small: number; grown: number; errors: number }> {
  const ts: number[] = [];
  const tg: number[] = [];
  let errors = 0;
  const t0 = performance.now();
  for (let i = 0; i < 2000 && (i < 10 || performance.now() - t0 < SEQ_MS); i++) {
    const order = i % 2 === 0 ? [s, g] : [g, s];
    for (const side of order) {
      const r = await timedGet(side.url, side.token);
      if (!r.ok) errors++;
      (side === s ? ts : tg).push(r.ms);
    }
  }
  return { small: median(ts), grown: median(tg), errors };
}

/** The A/B figures of one endpoint (after a check that both sides answer 2xx and a short warm-up). */
async function measureOne(
  urls: { small: string; grown: string; bare: string },
  es: Endpoint,
  eg: Endpoint,
  out: (s: string) => void,
): Promise<Row> {
  const s = { url: `${urls.small}${es[1]}`, token: es[2] };
  const g = { url: `${urls.grown}${eg[1]}`, token: eg[2] };
  for (const side of [s, g]) {
    const res = await fetch(side.url, {
      headers: side.token ? { authorization: `Bearer ${side.token}` } : {},
    });
    if (!res.ok) out(`  ${es[0]}: ${side.url} answered ${res.status} ${(await res.text()).slice(0, 200)}\n`);
  }
  await burst(s.url, s.token, 0.5);
  await burst(g.url, g.token, 0.5);
  const bare = await burst(`${urls.bare}/bare`, null, 1);
  const small: Burst[] = [];
  const grown: Burst[] = [];
  for (let p = 0; p < PAIRS; p++) {
    const order = p % 2 === 0 ? [s, g] : [g, s];
    for (const side of order) (side === s ? small : grown).push(await burst(side.url, side.token, BURST));
  }
  const seq = await sequential(s, g);
  const ratios = small.map((x, i) => Math.max(grown[i]?.p50 ?? 0, 1) / Math.max(x.p50, 1));
  return {
    name: es[0],
    smallP50: median(small.map((x) => x.p50)),
    grownP50: median(grown.map((x) => x.p50)),
    ratio: median(ratios),
    smallRps: median(small.map((x) => x.rps)),
    grownRps: median(grown.map((x) => x.rps)),
    smallSeq: seq.small,
    grownSeq: seq.grown,
    seqRatio: seq.grown / seq.small,
    bareP50: bare.p50,
    bareRps: bare.rps,
    errors: [...small, ...grown].reduce((n, x) => n + x.errors, 0) + seq.errors,
  };
}

/**
 * Measures every endpoint, small (`epS`, the small database's actors) beside grown (`epG`, same names and
 * order), printing a line per endpoint as it goes. A warm-up of both APIs first (JIT, pools).
 */
export async function measureAll(
  urls: { small: string; grown: string; bare: string },
  epS: Endpoint[],
  epG: Endpoint[],
  out: (s: string) => void,
): Promise<Row[]> {
  await burst(`${urls.small}/api/v1/sell-listings?size=20`, null, 3);
  await burst(`${urls.grown}/api/v1/sell-listings?size=20`, null, 3);
  const rows: Row[] = [];
  for (const [i, es] of epS.entries()) {
    const eg = epG[i];
    if (!eg) continue;
    const r = await measureOne(urls, es, eg, out);
    rows.push(r);
    out(
      `  ${r.name.padEnd(28)} 10c p50 ${r.smallP50} / ${r.grownP50} ms = ${r.ratio.toFixed(2)}x   ` +
        `1c p50 ${r.smallSeq.toFixed(2)} / ${r.grownSeq.toFixed(2)} ms = ${r.seqRatio.toFixed(2)}x` +
        `   (bare ${r.bareP50} ms)${r.errors ? `  non-2xx ${r.errors}` : ''}\n`,
    );
  }
  return rows;
}

function verdict(r: Row): string {
  return r.ratio <= GOAL && r.seqRatio <= GOAL ? 'met' : '**over 1.5x**';
}

/** The ratio table (markdown) of `measureAll`'s rows. */
export function ratioTable(rows: Row[]): string {
  const lines = [
    `${CONNECTIONS} connections: median of ${PAIRS} interleaved pairs of ${BURST} s bursts; 1 connection: alternating single requests`,
    '',
    '| endpoint | small p50 10c | grown p50 10c | ratio 10c | small req/s | grown req/s | small p50 1c | grown p50 1c | ratio 1c | bare p50 10c | within 1.5x |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.name} | ${r.smallP50} ms | ${r.grownP50} ms | ${r.ratio.toFixed(2)}x | ${r.smallRps.toFixed(0)} | ${r.grownRps.toFixed(0)} | ${r.smallSeq.toFixed(2)} ms | ${r.grownSeq.toFixed(2)} ms | ${r.seqRatio.toFixed(2)}x | ${r.bareP50} ms | ${verdict(r)} |`,
    );
  }
  const over = rows.filter((r) => verdict(r) !== 'met').map((r) => r.name);
  lines.push('', over.length ? `over 1.5x: ${over.join(', ')}` : `every endpoint within ${GOAL}x`);
  return `${lines.join('\n')}\n`;
}
