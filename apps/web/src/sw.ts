// The service worker (DECISIONS §16), built by vite-plugin-pwa in injectManifest mode: precaches the shell,
// answers a navigation that fails for lack of network with /offline.html, caches the web font as it is used,
// and never stores an API answer. A `push` handler can be added here later.
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { registerRoute, setCatchHandler } from 'workbox-routing';
import { CacheFirst, NetworkOnly } from 'workbox-strategies';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>;
};

/** Paths the server answers with data (app.ts, web.ts): the service worker never caches them. */
export const API_PATHS = [
  '/api',
  '/ops/api',
  '/my/',
  '/sms',
  '/buy-orders',
  '/transfer',
  '/dev',
  '/healthz',
  '/readyz',
  '/metrics',
  '/docs',
  '/events',
];

function isApi(pathname: string): boolean {
  return pathname === '/my' || API_PATHS.some((p) => pathname === p || pathname.startsWith(p));
}

cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

// Pages always come from the network, so a member never sees an old screen or someone's cached data;
// without a network the offline page answers.
registerRoute(({ request, url }) => request.mode === 'navigate' && !isApi(url.pathname), new NetworkOnly());

// Font subsets are hashed files: once fetched they never change.
registerRoute(
  ({ request, url }) => request.destination === 'font' && url.origin === self.location.origin,
  new CacheFirst({ cacheName: 'fonts' }),
);

setCatchHandler(async ({ request }) => {
  if (request.mode === 'navigate') return (await matchPrecache('/offline.html')) ?? Response.error();
  return Response.error();
});

// The page asks before a new version takes over ("새 버전" prompt, PwaUpdatePrompt.tsx).
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
