#!/usr/bin/env node
// What a first visit to `/` downloads (DECISIONS §16: <= 100 KB of gzipped JavaScript): opens the landing page
// in Chromium (Playwright, 390x844) against a small static server over the build, waits for network idle,
// and sums every script and font it fetched (gzip level 9 of each file, as the server sends the .gz sibling)
// plus the CSS. Usage: node bench/web-bundle.mjs [--build] [--dist DIR] [--lang kr|en|jp]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const webDir = join(root, 'apps/web');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const dist = resolve(arg('--dist', join(webDir, 'dist')));
const lang = arg('--lang', 'kr');

if (process.argv.includes('--build') || !existsSync(join(dist, 'index.html'))) {
  execFileSync(
    process.execPath,
    [
      join(root, 'node_modules/vite/bin/vite.js'),
      'build',
      '--outDir',
      dist,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    { cwd: webDir, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
}

const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
};

// The build alone, with the SPA fallback; API calls get 404 (the landing shows its empty and error states,
// which load no other code).
const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  let file = join(dist, path);
  if (!file.startsWith(dist) || !existsSync(file) || statSync(file).isDirectory()) {
    if (/^\/(api|my|sms|ops\/api)\b/.test(path)) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"returnCode":404}');
      return;
    }
    file = join(dist, 'index.html');
  }
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
  res.end(readFileSync(file));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3 });
await context.addInitScript((l) => localStorage.setItem('language', l), lang);
const page = await context.newPage();
const fetched = new Set();
page.on('request', (r) => {
  const u = new URL(r.url());
  if (u.origin === base) fetched.add(u.pathname);
});
await page.goto(`${base}/`, { waitUntil: 'networkidle' });
await browser.close();
server.close();

function measure(files) {
  return files.map((f) => {
    const buf = readFileSync(join(dist, f.replace(/^\//, '')));
    return { file: f, raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length };
  });
}
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
const total = (rows, k) => rows.reduce((s, r) => s + r[k], 0);
const existing = [...fetched].filter(
  (f) => existsSync(join(dist, f)) && !statSync(join(dist, f)).isDirectory(),
);
const groups = {
  JavaScript: measure(existing.filter((f) => f.endsWith('.js'))),
  CSS: measure(existing.filter((f) => f.endsWith('.css'))),
  fonts: measure(existing.filter((f) => f.endsWith('.woff2'))),
};

console.log(`Landing page \`/\` (language ${lang}), everything fetched up to network idle:`);
for (const [name, rows] of Object.entries(groups)) {
  console.log(`${name} (${rows.length} files):`);
  for (const r of rows.sort((a, b) => b.gzip - a.gzip))
    console.log(`  ${r.file.padEnd(56)} ${kb(r.raw).padStart(10)} raw ${kb(r.gzip).padStart(10)} gzip`);
  console.log(
    `  ${'total'.padEnd(56)} ${kb(total(rows, 'raw')).padStart(10)} raw ${kb(total(rows, 'gzip')).padStart(10)} gzip`,
  );
}
console.log(`WEB_BUNDLE_INITIAL_JS_GZIP_BYTES=${total(groups.JavaScript, 'gzip')}`);
console.log(`WEB_BUNDLE_FONT_BYTES=${total(groups.fonts, 'raw')}`);
