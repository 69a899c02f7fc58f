import { AxeBuilder } from '@axe-core/playwright';
import { describe, expect, it } from 'vitest';
import { setStoredLanguage } from './support/browser.ts';
import { signupViaApi } from './support/flows.ts';
import { e2eSuite } from './support/suite.ts';

// DECISIONS §13, §16: what the server sends for the web app and the public answers, the PWA, and
// WCAG 2.1 AA on every member screen in kr and en. One server and one browser for the whole file.
const e2e = e2eSuite();

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${e2e.server.baseUrl}${path}`, { headers: { 'accept-encoding': 'br, gzip', ...headers } });

describe('compression and caching (DECISIONS §13, §16)', () => {
  it('serves index.html and hashed assets precompressed, revalidated and immutable', async () => {
    const index = await get('/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-encoding')).toBe('br');
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const html = await index.text();
    // The static hero (LCP without script), SEO and PWA tags.
    expect(html).toContain('class="hero-title"');
    expect(html).toMatch(/<meta name="description" content="[^"]{20,}"/);
    expect(html).toContain('rel="manifest"');
    expect(html).toContain('property="og:title"');

    const script = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeTruthy();
    const asset = await get(script as string);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-encoding')).toBe('br');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const gz = await get(script as string, { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');

    // An app route answers index.html, revalidated too.
    const route = await get('/transaction');
    expect(route.headers.get('cache-control')).toBe('no-cache');
    expect(await route.text()).toContain('id="root"');
  });

  it('gives the public answers a short public cache or revalidation with an ETag, and the private ones no-store', async () => {
    for (const [path, maxAge] of [
      ['/api/v1/prices', 30],
      ['/api/v1/sell-listings/best', 15],
    ] as const) {
      const first = await get(path);
      expect(first.status).toBe(200);
      expect(first.headers.get('cache-control')).toBe(`public, max-age=${maxAge}`);
      const etag = first.headers.get('etag');
      expect(etag).toBeTruthy();
      const again = await get(path, { 'if-none-match': etag as string });
      expect(again.status).toBe(304);
    }
    // The trade list changes with every purchase: revalidated on each use (the answer cache gives the ETag).
    const list = await get('/api/v1/sell-listings');
    expect(list.headers.get('cache-control')).toBe('public, no-cache');
    const listTag = list.headers.get('etag');
    expect(listTag).toBeTruthy();
    expect((await get('/api/v1/sell-listings', { 'if-none-match': listTag as string })).status).toBe(304);
    const mine = await get('/my');
    expect(mine.headers.get('cache-control')).toBe('no-store');
  });

  it('serves the manifest, its icons, robots.txt, the offline page and the service worker', async () => {
    const res = await get('/manifest.webmanifest');
    expect(res.status).toBe(200);
    const manifest = (await res.json()) as {
      name: string;
      start_url: string;
      display: string;
      icons: { src: string; sizes: string; purpose?: string }[];
    };
    expect(manifest.name).toBe('P2P Coin Market');
    expect(manifest.start_url).toBe('/');
    expect(manifest.display).toBe('standalone');
    const sizes = manifest.icons.map((i) => `${i.sizes}:${i.purpose ?? 'any'}`);
    expect(sizes).toEqual(expect.arrayContaining(['192x192:any', '512x512:any', '512x512:maskable']));
    for (const icon of manifest.icons) {
      const png = await get(icon.src);
      expect(png.status).toBe(200);
      expect(png.headers.get('content-type')).toBe('image/png');
    }
    const robots = await get('/robots.txt');
    expect(await robots.text()).toContain('User-agent: *');
    expect((await get('/offline.html')).status).toBe(200);
    const sw = await get('/sw.js');
    expect(sw.status).toBe(200);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
  });
});

describe('installable PWA (DECISIONS §16)', () => {
  it('registers the service worker, shows the offline page without a network and caches no API answer', async () => {
    // The product registers its worker in every browser; the suite's contexts block it unless asked.
    const { context, page } = await e2e.mobilePage({ serviceWorkers: 'allow' });
    await page.goto('/');
    await page.getByTestId('price-BTC').waitFor();
    await expect
      .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length), {
        timeout: 20_000,
      })
      .toBe(1);
    // Precaching ends before the worker activates and claims the page.
    await expect
      .poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), { timeout: 30_000 })
      .toBe(true);
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
      }
      return urls;
    });
    expect(cached).toContain('/offline.html');
    expect(cached.some((u) => /^\/(api|my|sms|ops\/api|buy-orders|transfer|dev)(\/|$)/.test(u))).toBe(false);

    await context.setOffline(true);
    await page.goto('/transaction');
    await page.getByTestId('offline-page').waitFor();
    await context.setOffline(false);
    await context.close();
  });
});

// Every member screen (config/paths.ts); screens that need state they were not given show where they send
// the visitor, which is checked as well.
const PUBLIC_ROUTES = ['/', '/login', '/findid', '/findpw', '/agreement', '/contact', '/verify'];
const GUARDED_ROUTES = [
  '/myinfo',
  '/account',
  '/verification',
  '/modify',
  '/transaction',
  '/sell',
  '/create_wallet',
  '/wallet',
  '/withdraw',
  '/deposit',
  '/notifications',
];

describe('WCAG 2.1 AA with axe-core', () => {
  for (const lang of ['kr', 'en'] as const) {
    it(`has no violation on any member screen in ${lang}`, async () => {
      const member = await signupViaApi(e2e.server);
      const login = await e2e.server.t.call<{ accessToken: string; refreshToken: string }>(
        'POST',
        '/api/v1/auth/login',
        { body: { loginId: member.loginId, password: member.password } },
      );
      const tokens = login.body.returnData;
      const report: string[] = [];
      for (const signedIn of [false, true]) {
        const { context, page } = await e2e.mobilePage();
        await setStoredLanguage(context, lang);
        // No transitions: axe must see the colours a screen settles on, not a button fading in.
        await page.emulateMedia({ reducedMotion: 'reduce' });
        if (signedIn) {
          await context.addInitScript(
            ([a, r]) => {
              window.localStorage.setItem('accessToken', a as string);
              window.localStorage.setItem('refreshToken', r as string);
            },
            [tokens.accessToken, tokens.refreshToken],
          );
        }
        for (const route of signedIn ? GUARDED_ROUTES : PUBLIC_ROUTES) {
          await page.goto(route);
          // Not networkidle: a signed-in screen keeps its live-event stream open. The screen is there once
          // its header shows and no loader or skeleton is left.
          await page.locator('header').first().waitFor();
          await page
            .waitForFunction(
              () => !document.querySelector('.skeleton, [data-testid="fullscreen-loader"]'),
              null,
              {
                timeout: 10_000,
              },
            )
            .catch(() => undefined);
          const result = await new AxeBuilder({ page })
            .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
            .analyze();
          for (const v of result.violations) {
            report.push(
              `${lang} ${route} -> ${new URL(page.url()).pathname}: ${v.id} (${v.nodes
                .slice(0, 3)
                .map((n) => n.target.join(' '))
                .join(' | ')})`,
            );
          }
        }
        await context.close();
      }
      expect(report).toEqual([]);
    });
  }
});
