// Runs before the first paint: <html lang> from the language the member chose (localStorage `language`),
// else the browser's language among kr/en/jp, else kr, so the static hero of index.html shows that language; in Korean it also preloads the Pretendard
// subsets that screen draws (listed at build time in <meta name="boot-kr-fonts">; font-display: swap).
// It also preloads the two text chunks the landing page renders with (`common` and `home` of that language; <meta name="boot-texts">), so they load beside the entry chunk, not after it.
// It also turns off zod's JIT before any chunk with zod loads: zod 4 probes `new Function` once to decide
// whether to compile its parsers, and under this app's CSP (script-src 'self', no 'unsafe-eval') that probe is a
// reported violation even though zod catches it (Lighthouse: inspector-issues). zod keeps its config on
// globalThis.__zod_globalConfig (src/lib/zod-config.test.ts keeps that true).
// Kept tiny and dependency-free.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig ?? {}, { jitless: true });
(() => {
  const map = { kr: 'ko', en: 'en', jp: 'ja' };
  try {
    // The stored choice, else the browser's first language the app speaks, else Korean (src/i18n storedLanguage).
    const browser = { ko: 'kr', en: 'en', ja: 'jp' };
    const prefs = navigator.languages?.length ? navigator.languages : [navigator.language || ''];
    const fromBrowser = prefs.map((t) => browser[t.toLowerCase().split('-')[0]]).find(Boolean) || 'kr';
    const stored = map[localStorage.getItem('language')] ? localStorage.getItem('language') : fromBrowser;
    const lang = map[stored];
    if (lang) document.documentElement.lang = lang;
    const texts = document.querySelector('meta[name="boot-texts"]')?.content ?? '';
    for (const entry of texts.split(' ')) {
      const [l, files = ''] = entry.split(':');
      if (l !== stored) continue;
      for (const href of files.split(',').filter((f) => f.startsWith('/'))) {
        const link = document.createElement('link');
        link.rel = 'modulepreload';
        link.href = href;
        document.head.append(link);
      }
    }
    const fonts = document.querySelector('meta[name="boot-kr-fonts"]')?.content ?? '';
    if (lang === 'ko') {
      for (const href of fonts.split(' ').filter((f) => f.startsWith('/'))) {
        const link = document.createElement('link');
        link.rel = 'preload';
        link.as = 'font';
        link.type = 'font/woff2';
        link.crossOrigin = 'anonymous';
        link.href = href;
        document.head.append(link);
      }
    }
  } catch {
    // Storage blocked: the default language stays.
  }
})();
