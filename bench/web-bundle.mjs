#!/usr/bin/env node
// Landing page initial JavaScript, gzipped: the entry chunk of apps/web/dist/index.html plus the chunks it
// imports statically (Vite lists exactly those as <link rel="modulepreload">). Lazy route chunks are not
// counted. Usage: node bench/web-bundle.mjs [--build]   (builds first when --build is given or dist is missing)
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const webDir = join(root, 'apps/web');
const dist = join(webDir, 'dist');

if (process.argv.includes('--build') || !existsSync(join(dist, 'index.html'))) {
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: webDir,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
}

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const attr = (tag, name) => new RegExp(`${name}="([^"]+)"`).exec(tag)?.[1];
const tags = html.match(/<(script|link)\b[^>]*>/g) ?? [];
const entry = tags
  .filter((t) => t.startsWith('<script') && /type="module"/.test(t))
  .map((t) => attr(t, 'src'));
const preloads = tags.filter((t) => /rel="modulepreload"/.test(t)).map((t) => attr(t, 'href'));
const css = tags.filter((t) => /rel="stylesheet"/.test(t)).map((t) => attr(t, 'href'));

function measure(files) {
  return files.filter(Boolean).map((f) => {
    const buf = readFileSync(join(dist, f.replace(/^\//, '')));
    return { file: f, raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length };
  });
}

const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
const js = measure([...new Set([...entry, ...preloads])]);
const styles = measure(css);
const total = (rows, k) => rows.reduce((s, r) => s + r[k], 0);

console.log('Landing page initial JavaScript (entry + static imports):');
for (const r of js)
  console.log(`  ${r.file.padEnd(40)} ${kb(r.raw).padStart(10)} raw ${kb(r.gzip).padStart(10)} gzip`);
console.log(
  `  ${'total'.padEnd(40)} ${kb(total(js, 'raw')).padStart(10)} raw ${kb(total(js, 'gzip')).padStart(10)} gzip`,
);
console.log('Initial CSS (not counted above):');
for (const r of styles)
  console.log(`  ${r.file.padEnd(40)} ${kb(r.raw).padStart(10)} raw ${kb(r.gzip).padStart(10)} gzip`);
console.log(`WEB_BUNDLE_INITIAL_JS_GZIP_BYTES=${total(js, 'gzip')}`);
