// Runs before the first paint: <html lang> from the language the member chose (localStorage `language`,
// SPEC §5), so the static hero of index.html shows that language. Kept tiny and dependency-free.
(() => {
  const map = { kr: 'ko', en: 'en', jp: 'ja' };
  try {
    const lang = map[localStorage.getItem('language')];
    if (lang) document.documentElement.lang = lang;
  } catch {
    // Storage blocked: the default language stays.
  }
})();
