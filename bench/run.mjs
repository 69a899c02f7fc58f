// `npm run bench`: runs every benchmark of this folder and prints its figures (see README.md here).
// The trade-list and hot-path benchmarks need PostgreSQL: they run only when DATABASE_URL is set.
import { spawnSync } from 'node:child_process';

const runs = [['node', ['bench/web-bundle.mjs']]];
if (process.env.DATABASE_URL) {
  runs.push(['npx', ['tsx', 'bench/listings-keyset.ts']], ['npx', ['tsx', 'bench/hot-paths.ts']]);
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
