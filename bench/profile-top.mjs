// Summarizes a V8 CPU profile (`node --cpu-prof`, e.g. from BENCH_PROFILE=1 npx tsx bench/hot-paths.ts):
// self time by function and by where the code lives (a package of node_modules, the app's own files,
// node internals, garbage collection, idle).   node bench/profile-top.mjs bench/profiles/<file>.cpuprofile [N]
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node bench/profile-top.mjs <file.cpuprofile> [N]\n');
  process.exit(2);
}
const top = Number(topArg ?? 30);
const prof = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map();
const placeOf = (url) => {
  if (!url) return '(native/vm)';
  const m = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (m) return m[1];
  if (url.startsWith('node:')) return 'node internals';
  const app = url.match(/\/(apps|packages)\/(.*)$/);
  return app ? `${app[1]}/${app[2]}` : url;
};
// PROFILE_FROM_S=N leaves out the first N seconds (start-up, module loading, warm-up).
const fromUs = Number(process.env.PROFILE_FROM_S ?? 0) * 1e6;
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
// samples[i] was taken in node samples[i] and lasted timeDeltas[i + 1] (the next delta).
let at = 0;
const inclusive = new Map();
for (let i = 0; i < prof.samples.length; i++) {
  at += prof.timeDeltas[i] ?? 0;
  if (at < fromUs) continue;
  const dt = prof.timeDeltas[i + 1] ?? 0;
  self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + dt);
  // inclusive time by place: every place with a frame on this sample's stack
  const seen = new Set();
  for (let id = prof.samples[i]; id !== undefined; id = parent.get(id)) {
    const url = byId.get(id)?.callFrame.url;
    if (url) seen.add(placeOf(url).replace(/^(apps|packages)\/([^/]+\/[^/]+\/[^/]+).*/, '$1/$2'));
  }
  for (const p of seen) inclusive.set(p, (inclusive.get(p) ?? 0) + dt);
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const fn = new Map();
const where = new Map();
for (const [id, us] of self) {
  const n = byId.get(id);
  const cf = n.callFrame;
  const key = `${cf.functionName || '(anonymous)'}  ${placeOf(cf.url)}:${cf.lineNumber + 1}`;
  fn.set(key, (fn.get(key) ?? 0) + us);
  const place = ['(idle)', '(garbage collector)', '(program)'].includes(cf.functionName)
    ? cf.functionName
    : placeOf(cf.url).replace(/^(apps|packages)\/([^/]+\/[^/]+\/[^/]+).*/, '$1/$2');
  where.set(place, (where.get(place) ?? 0) + us);
}
const pct = (us) => `${((us / total) * 100).toFixed(1).padStart(5)}%`;
process.stdout.write(`total ${(total / 1e6).toFixed(1)} s sampled\n\nself time by place:\n`);
for (const [k, us] of [...where].sort((a, b) => b[1] - a[1]).slice(0, top))
  process.stdout.write(`${pct(us)}  ${k}\n`);
process.stdout.write('\ntime with a frame of the place on the stack (inclusive):\n');
for (const [k, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top))
  process.stdout.write(`${pct(us)}  ${k}\n`);
process.stdout.write('\nself time by function:\n');
for (const [k, us] of [...fn].sort((a, b) => b[1] - a[1]).slice(0, top))
  process.stdout.write(`${pct(us)}  ${k}\n`);
