// `npm run bench`: runs every benchmark of this folder and prints its figures (see README.md here).
// The trade-list, hot-path and growth benchmarks need PostgreSQL: they run only when DATABASE_URL is set.
import { spawnSync } from 'node:child_process';

const runs = [['node', ['bench/web-bundle.mjs']]];
if (process.env.DATABASE_URL) {
  runs.push(['npx', ['tsx', 'bench/listings-keyset.ts']], ['npx', ['tsx', 'bench/hot-paths.ts']]);
  // issue 27: small vs grown; BENCH_GROWTH_SCALE=1 for the full sizes (about 20 minutes of growth here)
  runs.push(['npx', ['tsx', 'bench/growth.ts', '--scale', process.env.BENCH_GROWTH_SCALE ?? '0.05']]);
} else {
  process.stdout.write(
    'bench: DATABASE_URL unset, skipping listings-keyset and hot-paths (need PostgreSQL)\n',
  );
}

for (const [cmd, args] of runs) {
  process.stdout.write(`\n$ ${cmd} ${args.join(' ')}\n`);
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
