#!/usr/bin/env node
// What the landing page's main thread does after first paint: loads `/` in /usr/bin/chromium at 390x844 with
// a 4x CPU slowdown (Lighthouse's mobile factor), records long tasks (PerformanceObserver) and a CPU profile
// for 6 s, and prints the long tasks after FCP and the functions with the most self time after FCP.
// Usage: node bench/home-main-thread.mjs --dist DIR [--lang kr]   (starts its own server like lighthouse.mjs)
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startDemoServer } from './demo-server.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const dist = resolve(arg('--dist', join(root, 'apps/web/dist')));

/** Self time (ms) per function of a CPU profile, counting only samples taken after `fromUs` (profile clock). */
function selfTimeAfter(profile, fromUs) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (at < fromUs) continue;
    const n = byId.get(profile.samples[i]);
    const f = n.callFrame;
    const where = f.url ? `${f.url.replace(/^.*\/assets\//, '')}:${f.lineNumber}` : '(native)';
    const key = `${f.functionName || '(anonymous)'} ${where}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000);
  }
  return [...self.entries()].sort((a, b) => b[1] - a[1]);
}

async function main() {
  const server = await startDemoServer(dist, 'p2p-mainthread-');
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.addInitScript(
      (lang) => {
        localStorage.setItem('language', lang);
        window.__longTasks = [];
        new PerformanceObserver((l) => {
          for (const e of l.getEntries()) window.__longTasks.push({ start: e.startTime, ms: e.duration });
        }).observe({ type: 'longtask', buffered: true });
      },
      arg('--lang', 'kr'),
    );
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await page.goto(server.base, { waitUntil: 'load' });
    await page.waitForTimeout(6000);
    const { profile } = await cdp.send('Profiler.stop');
    const out = await page.evaluate(() => ({
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0,
      origin: performance.timeOrigin,
      tasks: window.__longTasks,
    }));
    const after = out.tasks.filter((x) => x.start >= out.fcp);
    const blocking = after.reduce((s, x) => s + Math.max(0, x.ms - 50), 0);
    console.log(
      `FCP ${Math.round(out.fcp)} ms; long tasks after FCP: ${after.length}, blocking ${Math.round(blocking)} ms`,
    );
    for (const x of after) console.log(`  at ${Math.round(x.start)} ms: ${Math.round(x.ms)} ms`);
    // The profile's clock is monotonic microseconds; performance.now() 0 is timeOrigin. Take FCP on it.
    const fcpUs = profile.startTime + 0; // profile starts before navigation; count from the first sample after load
    console.log('self time (ms) after profiling start, top 25:');
    for (const [k, v] of selfTimeAfter(profile, fcpUs).slice(0, 25)) console.log(`  ${v.toFixed(1)}  ${k}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
