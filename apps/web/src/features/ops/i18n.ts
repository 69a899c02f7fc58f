import i18n from '../../i18n';

/**
 * Registers the `ops` namespace. The shell's i18n setup leaves ops.json out of the member entry chunk, so
 * the console (a lazy chunk) brings its own texts in all three languages when it first loads.
 */
const files = import.meta.glob<{ default: Record<string, unknown> }>('../../i18n/locales/*/ops.json', {
  eager: true,
});

for (const [file, mod] of Object.entries(files)) {
  const lang = /locales\/(\w+)\/ops\.json$/.exec(file)?.[1];
  if (lang) i18n.addResourceBundle(lang, 'ops', mod.default, true, true);
}
