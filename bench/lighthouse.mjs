#!/usr/bin/env node
// Lighthouse (mobile defaults: Moto G Power class CPU slowdown, slow 4G) on `/`, `/login` and, signed in,
// `/transaction`: median of 3 runs of the four category scores, FCP/LCP/TBT/CLS and the host's benchmarkIndex
// (DECISIONS §16).
// Starts its own server (`apps/api/src/server.ts` with tsx, in-memory-like PGlite in a temp DATA_DIR, demo
// members, static prices) serving apps/web/dist, and drives /usr/bin/chromium through chrome-launcher.
// Usage: node bench/lighthouse.mjs [--build] [--runs N] [--dist DIR] [--json FILE] [--only /path] [--tasks]
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { startDemoServer } from './demo-server.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const RUNS = Number(arg('--runs', '3'));
const dist = resolve(arg('--dist', join(root, 'apps/web/dist')));
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const DEMO = { loginId: 'demobuyer', password: 'buyer1234!' };

if (process.argv.includes('--build') || !existsSync(join(dist, 'index.html'))) {
  execFileSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', dist], {
    cwd: join(root, 'apps/web'),
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

function printTasks(path, run, lhr) {
  const tasks = lhr.audits['long-tasks']?.details?.items ?? [];
  const breakdown = lhr.audits['mainthread-work-breakdown']?.details?.items ?? [];
  const fmt = (t) => `${Math.round(t.startTime)}+${Math.round(t.duration)} ${String(t.url).split('/').pop()}`;
  process.stderr.write(`${path} run ${run} long tasks: ${tasks.map(fmt).join(', ')}\n`);
  const kinds = breakdown.map((b) => `${b.groupLabel ?? b.group} ${Math.round(b.duration)}`).join(', ');
  process.stderr.write(`${path} run ${run} main thread (ms): ${kinds}\n`);
}

async function signIn(base, cdpPort) {
  const r = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO),
  });
  const body = await r.json();
  if (!r.ok) throw new Error(`login failed: ${JSON.stringify(body)}`);
  const { accessToken, refreshToken } = body.returnData;
  // Lighthouse keeps this origin's storage when disableStorageReset is set, so the app starts signed in.
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${cdpPort}`);
  const page = await browser.contexts()[0].newPage();
  await page.goto(`${base}/robots.txt`);
  // Storage is kept for the token, so empty the HTTP cache, the service worker and its caches by hand: every
  // run is a first visit, as on the pages measured signed out.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  await cdp.send('Storage.clearDataForOrigin', {
    origin: base,
    storageTypes: 'service_workers,cache_storage,local_storage',
  });
  await page.evaluate(
    ([a, b]) => {
      localStorage.setItem('accessToken', a);
      localStorage.setItem('refreshToken', b);
    },
    [accessToken, refreshToken],
  );
  await page.close();
  await browser.close().catch(() => {});
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const METRICS = {
  FCP: 'first-contentful-paint',
  LCP: 'largest-contentful-paint',
  TBT: 'total-blocking-time',
  CLS: 'cumulative-layout-shift',
};

async function main() {
  const server = await startDemoServer(dist, 'p2p-lighthouse-');
  const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: CHROME_FLAGS });
  const results = {};
  try {
    for (const { path, signedIn } of [
      { path: '/', signedIn: false },
      { path: '/login', signedIn: false },
      { path: '/transaction', signedIn: true },
    ].filter((p) => !arg('--only') || p.path === arg('--only'))) {
      const runs = [];
      let failures = 0;
      for (let i = 0; i < RUNS; i++) {
        if (signedIn) await signIn(server.base, chrome.port);
        const out = await lighthouse(
          `${server.base}${path}`,
          { port: chrome.port, output: 'json', logLevel: 'error', disableStorageReset: signedIn },
          undefined,
        );
        const lhr = out.lhr;
        if (lhr.runtimeError) {
          process.stderr.write(`${path} run ${i + 1} failed (${lhr.runtimeError.code}); running it again\n`);
          if (++failures > 3) throw new Error(`${path}: ${lhr.runtimeError.message}`);
          i--;
          continue;
        }
        if (signedIn && new URL(lhr.finalDisplayedUrl).pathname !== path)
          throw new Error(`not signed in: landed on ${lhr.finalDisplayedUrl}`);
        const row = {};
        for (const c of CATEGORIES) row[c] = Math.round((lhr.categories[c]?.score ?? 0) * 100);
        for (const [k, id] of Object.entries(METRICS)) row[k] = lhr.audits[id]?.numericValue ?? Number.NaN;
        // How fast this host is (Lighthouse's benchmarkIndex: ~2,500 mid-range, higher is faster): a score
        // means little without it, since the simulated 4x slowdown multiplies the host's own speed.
        row.benchmarkIndex = lhr.environment?.benchmarkIndex ?? Number.NaN;
        row.failing = Object.values(lhr.audits)
          .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
          .map((a) => a.id);
        // What a failing audit found (e.g. which DevTools issue), so a lost point can be traced without a report.
        for (const a of Object.values(lhr.audits)) {
          if (
            a.score !== null &&
            a.score < 1 &&
            a.scoreDisplayMode === 'binary' &&
            a.details?.items?.length
          ) {
            process.stderr.write(
              `${path} run ${i + 1}: ${a.id}: ${JSON.stringify(a.details.items).slice(0, 600)}\n`,
            );
          }
        }
        // --tasks: the run's long tasks (start, duration, script) and main-thread time by kind, to see what a
        // slow run spent its blocking time on.
        if (process.argv.includes('--tasks')) printTasks(path, i + 1, lhr);
        runs.push(row);
        process.stderr.write(
          `${path} run ${i + 1}: perf ${row.performance} TBT ${Math.round(row.TBT)} ms LCP ${Math.round(row.LCP)} ms benchmarkIndex ${Math.round(row.benchmarkIndex)}\n`,
        );
      }
      const med = {};
      for (const k of [...CATEGORIES, ...Object.keys(METRICS), 'benchmarkIndex'])
        med[k] = median(runs.map((r) => r[k]));
      med.perfRuns = runs.map((r) => r.performance);
      med.failing = [...new Set(runs.flatMap((r) => r.failing))];
      results[path + (signedIn ? ' (signed in)' : '')] = med;
    }
  } finally {
    chrome.kill();
    await server.stop();
  }
  const fmtMs = (n) => `${(n / 1000).toFixed(2)} s`;
  console.log(`Lighthouse ${RUNS > 1 ? `median of ${RUNS}` : '1 run'}, mobile defaults`);
  console.log('| page | perf (runs) | TBT | benchmarkIndex | a11y | best pr. | SEO | FCP | LCP | CLS |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const [page, m] of Object.entries(results)) {
    console.log(
      `| ${page} | ${m.performance} (${m.perfRuns.join(', ')}) | ${Math.round(m.TBT)} ms | ${Math.round(m.benchmarkIndex)} | ${m.accessibility} | ${m['best-practices']} | ${m.seo} | ${fmtMs(m.FCP)} | ${fmtMs(m.LCP)} | ${m.CLS.toFixed(3)} |`,
    );
  }
  for (const [page, m] of Object.entries(results))
    if (m.failing.length) console.log(`failing binary audits on ${page}: ${m.failing.join(', ')}`);
  const json = arg('--json');
  if (json) writeFileSync(json, JSON.stringify(results, null, 2));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
