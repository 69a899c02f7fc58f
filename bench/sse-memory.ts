// Memory of open event streams (issue 12): the API (embedded PGlite in memory) serves N streams of
// GET /api/v1/events on loopback, one per member, opened by a child process (bench/sse-clients.mjs) so this
// process holds only the server. Prints heap and RSS after a full GC before and with the streams open,
// and the cost per stream. Run: node --expose-gc --import tsx bench/sse-memory.ts   (BENCH_STREAMS=1000)
import { spawn } from 'node:child_process';
import { createMember } from '../apps/api/test/fixtures.ts';
import { createTestApp } from '../apps/api/test/helpers.ts';

const N = Number(process.env.BENCH_STREAMS ?? 1000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc --import tsx bench/sse-memory.ts');

const t = await createTestApp({ EVENTS_HEARTBEAT_SEC: '20' });
const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
const tokens: string[] = [];
for (let i = 0; i < N; i++) tokens.push((await createMember(t)).token);

async function settle() {
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((r) => setTimeout(r, 200));
  }
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss, external: m.external + m.arrayBuffers };
}

// one warm-up stream so route, parser and hub code are compiled before the baseline
const warm = spawn(process.execPath, ['bench/sse-clients.mjs'], { stdio: ['pipe', 'pipe', 'inherit'] });
await opened(warm, tokens.slice(0, 1));
warm.stdin.end();
await new Promise((r) => warm.on('exit', r));
await new Promise((r) => setTimeout(r, 300));

const before = await settle();
const child = spawn(process.execPath, ['bench/sse-clients.mjs'], { stdio: ['pipe', 'pipe', 'inherit'] });
await opened(child, tokens);
await new Promise((r) => setTimeout(r, 1000));
const during = await settle();

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
const kb = (b: number) => `${(b / 1024).toFixed(1)} kB`;
process.stdout.write(
  [
    `streams open: ${N} (every one answered 200 before measuring)`,
    `heapUsed: ${mb(before.heap)} -> ${mb(during.heap)} (+${kb((during.heap - before.heap) / N)} per stream)`,
    `rss:      ${mb(before.rss)} -> ${mb(during.rss)} (+${kb((during.rss - before.rss) / N)} per stream)`,
    `external: ${mb(before.external)} -> ${mb(during.external)}`,
    '',
  ].join('\n'),
);
child.stdin.end();
await new Promise((r) => child.on('exit', r));
await t.close();

function opened(proc: ReturnType<typeof spawn>, toks: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    proc.stdout?.on('data', (c: Buffer) => {
      if (String(c).startsWith('ready')) resolve();
    });
    proc.on('exit', (code) => reject(new Error(`clients exited ${code}`)));
    proc.stdin?.write(`${JSON.stringify({ url, tokens: toks })}\n`);
  });
}
