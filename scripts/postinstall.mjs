// Builds the web app once after install so that `npm start` serves it without a build step
// (DECISIONS §9: the web app is served by the API on one port). Skipped when SKIP_WEB_BUILD=1.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (process.env.SKIP_WEB_BUILD === '1' || !existsSync('apps/web/vite.config.ts')) process.exit(0);
const r = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { stdio: 'inherit' });
process.exit(r.status ?? 1);
