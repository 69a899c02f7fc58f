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
];

/**
 * Serves the built web app from `distDir` on the API's port (DECISIONS §9), with the SPA fallback:
 * any GET that is not an API path and not a file answers index.html. Returns false when no build exists.
 */
export async function serveWebApp(app: FastifyInstance, distDir = DEFAULT_DIST): Promise<boolean> {
  if (!existsSync(join(distDir, 'index.html'))) return false;
  await app.register(fastifyStatic, { root: distDir, wildcard: false, index: ['index.html'] });
  return true;
}

/** True when a GET for this path should get the web app's index.html instead of a 404 envelope. */
export function isWebRoute(url: string): boolean {
  const path = url.split('?')[0] ?? '/';
  if (path.startsWith('/my') && !path.startsWith('/myinfo')) return false;
  return !API_PREFIXES.some((p) => path === p.replace(/\/$/, '') || path.startsWith(p));
}
