import { LANGUAGES, type Language } from '@p2p/contract/enums.ts';
import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { local, STORAGE_KEYS } from '../lib/storage';
import './josa';

/**
 * i18next with one JSON file per language and namespace: locales/<lang>/<namespace>.json. New namespace
 * files are picked up automatically. The default is the browser's language among kr/en/jp, else kr (a stored choice wins); a missing key shows the key
 * (SPEC §1).
 *
 * Every file is its own chunk, loaded through the backend below. The landing page needs only `common` and
 * `home` in the member's language: main.tsx renders once those two are there (`i18nReady`), and public/boot.js
 * preloads exactly those two chunks while the entry loads (index.html lists them per language, vite.config.ts
 * staticHero), so the entry carries no texts and no other language. The first screen other than `/` waits for
 * the remaining namespaces (router.tsx awaits loadMemberNamespaces); a language switch loads the namespaces
 * already loaded in the new language before it changes. ops.json is registered by the operator console.
 */
const LANDING_NAMESPACES = ['common', 'home'];
const lazyFiles = import.meta.glob<{ default: Record<string, unknown> }>([
  './locales/*/*.json',
  '!./locales/*/ops.json',
]);

function parts(file: string): [string, string] | null {
  const m = /\.\/locales\/(\w+)\/(\w+)\.json$/.exec(file);
  return m?.[1] && m[2] ? [m[1], m[2]] : null;
}

/** An i18next backend that imports the locale chunks (one per language and namespace). */
const chunkBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, namespace, callback) {
    const load = lazyFiles[`./locales/${language}/${namespace}.json`];
    if (!load) return callback(null, {});
    load().then(
      (mod) => callback(null, mod.default as ResourceKey),
      (err: unknown) => callback(err as Error, null),
    );
  },
};

/** The language when neither a stored choice nor the browser names one of kr/en/jp. */
export const DEFAULT_LANGUAGE: Language = 'kr';
const HTML_LANG: Record<Language, string> = { en: 'en', kr: 'ko', jp: 'ja' };
const BROWSER_LANG: Record<string, Language> = { ko: 'kr', en: 'en', ja: 'jp' };

/**
 * The first of the browser's preferred languages (`navigator.languages`, BCP 47 tags such as ko-KR) that the
 * app speaks, else Korean: a ko-KR browser must not land in English. public/boot.js repeats this rule.
 */
export function browserLanguage(tags: readonly string[] = navigatorLanguages()): Language {
  for (const tag of tags) {
    const lang = BROWSER_LANG[tag.toLowerCase().split('-')[0] ?? ''];
    if (lang) return lang;
  }
  return DEFAULT_LANGUAGE;
}

function navigatorLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language ?? ''];
}

/** The stored language when it is one of kr/en/jp (the member's choice, kept across logout), else the browser's. */
export function storedLanguage(): Language {
  const v = local.get(STORAGE_KEYS.language);
  return (LANGUAGES as readonly string[]).includes(v ?? '') ? (v as Language) : browserLanguage();
}

/** Switches the interface language and persists the choice in localStorage `language`. */
export async function setLanguage(lang: Language): Promise<void> {
  local.set(STORAGE_KEYS.language, lang);
  await i18n.changeLanguage(lang);
}

/** Every member namespace (ops.json excepted), the landing's included. */
export const namespaces = [...new Set(Object.keys(lazyFiles).map((f) => parts(f)?.[1]))].filter(
  (n): n is string => Boolean(n),
);

/** Loads every member namespace in the current language (the first screen other than `/` waits for it). */
export function loadMemberNamespaces(): Promise<void> {
  return i18n.loadNamespaces(namespaces);
}

i18n.on('languageChanged', (lng) => {
  if (typeof document !== 'undefined') {
    document.documentElement.lang = HTML_LANG[lng as Language] ?? 'en';
  }
});

/** Resolves once `common` and `home` of the stored language are loaded: main.tsx renders after it. */
export const i18nReady: Promise<unknown> = i18n
  .use(chunkBackend)
  .use(initReactI18next)
  .init({
    lng: storedLanguage(),
    fallbackLng: false,
    supportedLngs: [...LANGUAGES],
    ns: LANDING_NAMESPACES,
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
  });

export default i18n;
