// Runs before the first paint: <html lang> from the language the member chose (localStorage `language`,
// SPEC §5), so the static hero of index.html shows that language; in Korean it also preloads the Pretendard
// subsets that screen draws (listed at build time in <meta name="boot-kr-fonts">; font-display: swap).
// Kept tiny and dependency-free.
(() => {
  const map = { kr: 'ko', en: 'en', jp: 'ja' };
  try {
    const lang = map[localStorage.getItem('language')];
    if (lang) document.documentElement.lang = lang;
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
