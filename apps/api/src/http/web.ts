import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const DEFAULT_DIST = resolve(dirname(fileURLToPath(import.meta.url)), '../../../web/dist');
const API_PREFIXES = [
  '/api/',
  '/ops/api/',
  // '/my' and '/my/...' are API paths; '/myinfo' is an app route.
  '/my/',
  '/sms/',
  '/buy-orders',
  '/transfer',
  '/dev/',
  '/healthz',
  '/readyz',
  '/metrics',
  '/docs',
  '/events',
];

/** A year, immutable: Vite puts a content hash in every file name under /assets/ (DECISIONS §13, §16). */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (index.html, the service worker, the manifest, icons) is revalidated by ETag each time. */
export const REVALIDATE = 'no-cache';

/** The Cache-Control of a served web file, by its path on disk. */
export function webCacheControl(filePath: string): string {
  return /[\\/]assets[\\/]/.test(filePath) ? IMMUTABLE : REVALIDATE;
}

/**
 * Serves the built web app from `distDir` on the API's port (DECISIONS §9), with the SPA fallback:
 * any GET that is not an API path and not a file answers index.html. The build ships .br and .gz siblings
 * (vite.config.ts), which are sent when the browser accepts them (DECISIONS §16). Returns false when no
 * build exists.
 */
export async function serveWebApp(app: FastifyInstance, distDir = DEFAULT_DIST): Promise<boolean> {
  if (!existsSync(join(distDir, 'index.html'))) return false;
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: ['index.html'],
    preCompressed: true,
    // The route's own header wins over the no-store default of app.ts (public files, DECISIONS §13).
    cacheControl: false,
    setHeaders: (res, filePath) => {
      res.header('cache-control', webCacheControl(filePath));
      res.header('vary', 'accept-encoding');
    },
  });
  return true;
}

/** True when a GET for this path should get the web app's index.html instead of a 404 envelope. */
export function isWebRoute(url: string): boolean {
  const path = url.split('?')[0] ?? '/';
  if (path.startsWith('/my') && !path.startsWith('/myinfo')) return false;
  return !API_PREFIXES.some((p) => path === p.replace(/\/$/, '') || path.startsWith(p));
}
