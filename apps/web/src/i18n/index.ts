import { LANGUAGES, type Language } from '@p2p/contract/enums.ts';
import i18n, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { local, STORAGE_KEYS } from '../lib/storage';

/**
 * i18next with one JSON file per language and namespace: locales/<lang>/<namespace>.json. New namespace
 * files are picked up automatically. en is the default; a missing key shows the key (SPEC §1).
 */
// ops.json is left out: the operator console's lazy chunk registers it, keeping it out of the member entry.
const files = import.meta.glob<{ default: Record<string, unknown> }>(
  ['./locales/*/*.json', '!./locales/*/ops.json'],
  { eager: true },
);

function buildResources(): Resource {
  const resources: Resource = {};
  for (const [file, mod] of Object.entries(files)) {
    const m = /\.\/locales\/(\w+)\/(\w+)\.json$/.exec(file);
    if (!m?.[1] || !m[2]) continue;
    resources[m[1]] ??= {};
    (resources[m[1]] as Record<string, unknown>)[m[2]] = mod.default;
  }
  return resources;
}

export const DEFAULT_LANGUAGE: Language = 'en';
const HTML_LANG: Record<Language, string> = { en: 'en', kr: 'ko', jp: 'ja' };

/** The stored language when it is one of kr/en/jp, else en (SPEC §5). */
export function storedLanguage(): Language {
  const v = local.get(STORAGE_KEYS.language);
  return (LANGUAGES as readonly string[]).includes(v ?? '') ? (v as Language) : DEFAULT_LANGUAGE;
}

/** Switches the interface language and persists the choice in localStorage `language`. */
export async function setLanguage(lang: Language): Promise<void> {
  local.set(STORAGE_KEYS.language, lang);
  await i18n.changeLanguage(lang);
}

export const namespaces = [
  ...new Set(Object.keys(files).map((f) => f.split('/')[3]?.replace('.json', ''))),
].filter((n): n is string => Boolean(n));

i18n.on('languageChanged', (lng) => {
  if (typeof document !== 'undefined') {
    document.documentElement.lang = HTML_LANG[lng as Language] ?? 'en';
  }
});

void i18n.use(initReactI18next).init({
  resources: buildResources(),
  lng: storedLanguage(),
  fallbackLng: false,
  supportedLngs: [...LANGUAGES],
  ns: namespaces,
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
  react: { useSuspense: false },
});

export default i18n;
