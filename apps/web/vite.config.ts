import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';
import { PREACT_ALIASES } from './vite.aliases';

const apiTarget = process.env.API_URL ?? 'http://localhost:8080';
const apiPaths = ['/api', '/ops/api', '/my', '/sms', '/buy-orders', '/transfer', '/dev', '/healthz', '/docs'];

/**
 * One TanStack Query core: the persister packages pin older patch releases of @tanstack/query-core than
 * @tanstack/react-query, so npm installs three copies and the price persister shipped a second one. All of
 * them resolve to the copy react-query itself uses (same major version).
 */
const requireFromQuery = createRequire(createRequire(import.meta.url).resolve('@tanstack/react-query'));
const QUERY_CORE = join(
  dirname(requireFromQuery.resolve('@tanstack/query-core/package.json')),
  'build/modern/index.js',
);

/** Libraries every screen needs, split from the app code so they stay cached across deployments. */
const VENDOR_CHUNKS: Record<string, RegExp> = {
  preact: /node_modules\/preact\//,
  router: /node_modules\/(react-router|cookie|set-cookie-parser)\//,
  query: /node_modules\/@tanstack\/(query-core|react-query)\//,
  i18n: /node_modules\/(i18next|react-i18next|html-parse-stringify|void-elements)\//,
};

const LANGS = [
  ['kr', 'ko'],
  ['en', 'en'],
  ['jp', 'ja'],
] as const;

function locale(lang: string, ns: string): Record<string, Record<string, string> & { brand?: string }> {
  return JSON.parse(readFileSync(new URL(`./src/i18n/locales/${lang}/${ns}.json`, import.meta.url), 'utf8'));
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const PRETENDARD_CSS = new URL(
  '../../node_modules/pretendard/dist/web/variable/pretendardvariable-dynamic-subset.css',
  import.meta.url,
);

/** The indexes of the Pretendard dynamic subsets whose unicode-range holds a character of `text`. */
function pretendardSubsetsFor(text: string): number[] {
  const css = readFileSync(PRETENDARD_CSS, 'utf8');
  const wanted = new Set([...text].filter((c) => c.trim()).map((c) => c.codePointAt(0) as number));
  const found: number[] = [];
  for (const m of css.matchAll(/subset\.(\d+)\.woff2[^}]*unicode-range:([^;}]+)/g)) {
    const ranges = (m[2] ?? '').split(',').map((r) => r.trim().replace(/^U\+/i, '').split('-'));
    const hit = [...wanted].some((cp) =>
      ranges.some(([a, b]) => cp >= Number.parseInt(a ?? '', 16) && cp <= Number.parseInt(b ?? a ?? '', 16)),
    );
    if (hit) found.push(Number(m[1]));
  }
  return found;
}

/**
 * Writes the landing hero into index.html in the three languages (index.html's CSS shows the one of
 * <html lang>, which public/boot.js sets), so the largest text paints before any script runs
 * (DECISIONS §16). The texts come from the locale files, so the static and the React hero never differ.
 */
function staticHero(): Plugin {
  return {
    name: 'static-hero',
    transformIndexHtml(html, ctx) {
      const span = (key: 'eyebrow' | 'title' | 'sub' | 'cta') =>
        LANGS.map(
          ([l, tag]) => `<span lang="${tag}">${escapeHtml(locale(l, 'home').hero?.[key] ?? '')}</span>`,
        ).join('');
      const brand = LANGS.map(
        ([l, tag]) => `<span lang="${tag}">${escapeHtml(String(locale(l, 'common').brand ?? ''))}</span>`,
      ).join('');
      const hero =
        `<div class="app-column"><div class="boot-header"><span class="boot-mark">P2P</span>${brand}</div>` +
        `<main><section class="hero"><p class="hero-eyebrow">${span('eyebrow')}</p>` +
        `<h1 class="hero-title">${span('title')}</h1><p class="hero-sub">${span('sub')}</p>` +
        `<span class="boot-cta">${span('cta')}</span></section></main></div>`;
      const description = escapeHtml(locale('en', 'home').hero?.sub ?? '');
      // The Pretendard subsets the Korean first screen draws, for boot.js to preload when the language is kr.
      const krText = [
        ...Object.values(locale('kr', 'home').hero ?? {}),
        String(locale('kr', 'common').brand ?? ''),
        ...Object.values(locale('kr', 'common').nav ?? {}),
      ].join('');
      const files = Object.keys(ctx.bundle ?? {});
      const fonts = pretendardSubsetsFor(krText)
        .map((i) => files.find((f) => f.includes(`PretendardVariable.subset.${i}-`)))
        .filter((f): f is string => Boolean(f))
        .map((f) => `/${f}`);
      // The landing texts (`common` and `home`) of each language, for boot.js to preload the member's two.
      const chunks = Object.values(ctx.bundle ?? {});
      const texts = LANGS.map(([l]) => {
        const own = ['common', 'home'].map((ns) =>
          chunks.find(
            (c) => c.type === 'chunk' && c.facadeModuleId?.endsWith(`/i18n/locales/${l}/${ns}.json`),
          ),
        );
        return `${l}:${own.map((c) => (c ? `/${c.fileName}` : '')).join(',')}`;
      });
      return html
        .replace('%BOOT_HERO%', hero)
        .replace('%BOOT_TEXTS%', ctx.bundle ? texts.join(' ') : '')
        .replaceAll('%BOOT_DESCRIPTION%', description)
        .replace('%BOOT_KR_FONTS%', fonts.join(' '));
    },
  };
}

// In `npm run dev` Vite serves the app on 5173 and forwards API paths to the API server.
// `/my` is also an app route prefix (/myinfo), so only the exact API paths are forwarded.
export default defineConfig({
  resolve: { alias: [...PREACT_ALIASES, { find: /^@tanstack\/query-core$/, replacement: QUERY_CORE }] },
  plugins: [
    staticHero(),
    // DECISIONS §16: every text file ships with .br and .gz siblings that @fastify/static sends as they are.
    compression({
      algorithms: [defineAlgorithm('brotliCompress'), defineAlgorithm('gzip', { level: 9 })],
      include: /\.(js|mjs|css|html|svg|json|webmanifest|txt)$/,
      threshold: 512,
    }),
    // injectManifest (not generateSW): src/sw.ts is our own service worker, so a `push` handler can be added
    // to it later; the plugin only injects the precache list (docs/engineering-log.md "Front door").
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      injectManifest: {
        // The shell: scripts, styles, the pages and icons. Fonts are cached as they are used (sw.ts); the
        // operator console and the QR scanner are not part of a member's first visit.
        globPatterns: ['**/*.{js,css,html,svg,webmanifest}', 'icons/*.png'],
        globIgnores: ['**/OpsApp-*', '**/qr-scanner*', '**/*.map'],
        maximumFileSizeToCacheInBytes: 600_000,
      },
      manifest: {
        id: '/',
        name: 'P2P Coin Market',
        short_name: 'P2P Coin',
        description: 'Buy and sell BTC, ETH, XRP and TRX person to person, with escrow.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#f4f6f9',
        theme_color: '#1f54d6',
        lang: 'ko',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      devOptions: { enabled: false },
    }),
  ],
  server: {
    port: 5173,
    proxy: Object.fromEntries(
      apiPaths.map((p) => [p === '/my' ? '^/my(/|$|\\?)' : p, { target: apiTarget, changeOrigin: false }]),
    ),
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 800,
    // Every browser the app supports preloads modules natively (Chrome 66, Firefox 115, Safari 17).
    modulePreload: { polyfill: false },
    rollupOptions: {
      // TanStack Query's "use client" directives mean nothing outside React Server Components.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE' && warning.message.includes('"use client"')) return;
        warn(warning);
      },
      output: {
        // Groups by priority, the framework first, so a library's chunk never captures another library it
        // imports (Preact stays one chunk that router, query and i18n import). Only what the entry loads
        // (`$initial`) goes to these chunks: the parts of a library only other screens use stay with them.
        codeSplitting: {
          groups: [
            ...Object.entries(VENDOR_CHUNKS).map(([name, test], i, all) => ({
              name,
              test,
              tags: ['$initial' as const],
              priority: all.length + 1 - i,
            })),
            // The rest of what the entry imports statically is one chunk, not several small shared ones.
            { name: 'index', tags: ['$initial'], priority: 1 },
          ],
        },
      },
    },
  },
});
