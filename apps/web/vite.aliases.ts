/**
 * The app is written against React's API and runs on Preact 10 through preact/compat (docs/engineering-log.md
 * "Front door": 63 kB of React 19 for the landing's 100 kB budget, DECISIONS §16). Every import of react or
 * react-dom, ours and the libraries', resolves to Preact, in the build, in `npm run dev` and so in the browser
 * tests, which run against this build.
 * The web unit tests (vitest.config.ts) use the same aliases.
 */
export const PREACT_ALIASES: { find: RegExp; replacement: string }[] = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
  // react-i18next's CommonJS shim of a hook preact/compat has (as an ES module, so Preact stays one chunk).
  { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: 'preact/compat' },
];
