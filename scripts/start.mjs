// `npm start` (DECISIONS §9, §18): the signer first, then the API serving the built web app on PORT (8080).
// Builds the web app first only if no build exists (npm install normally built it). The signer (apps/signer)
// listens on SIGNER_PORT (8081) of 127.0.0.1; the API starts once the signer answers /healthz. When SIGNER_URL
// is set the signer runs elsewhere and is not started here. SIGINT/SIGTERM stop both; when either exits, the
// other is stopped too, and this script exits with the API's code.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync('apps/web/dist/index.html')) {
  const r = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const children = new Map();
let stopping = false;
let apiCode = 0;

function run(name, script) {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: 'inherit' });
  children.set(name, child);
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (name === 'api') apiCode = code ?? (signal ? 1 : 0);
    else if (!stopping && code !== 0) apiCode = code ?? 1;
    stopAll('SIGTERM');
    if (children.size === 0) process.exit(apiCode);
  });
  return child;
}

function stopAll(sig) {
  stopping = true;
  for (const child of children.values()) child.kill(sig);
}
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => stopAll(sig));

async function signerUp(url) {
  for (let waited = 0; waited < 120_000; waited += 200) {
    if (stopping) return false;
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

if (!process.env.SIGNER_URL) {
  run('signer', 'apps/signer/src/server.ts');
  const port = process.env.SIGNER_PORT || '8081';
  if (!(await signerUp(`http://127.0.0.1:${port}/healthz`))) {
    console.error(`npm start: the signer did not answer on 127.0.0.1:${port}; stopping`);
    apiCode = 1;
    stopAll('SIGTERM');
  }
}
if (!stopping) run('api', 'apps/api/src/server.ts');
