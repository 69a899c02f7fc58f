import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COINS, coinSpec } from '@p2p/contract/coins.ts';
import { LANGUAGES } from '@p2p/contract/enums.ts';
import { describe, expect, it } from 'vitest';
import { COIN_ICONS } from './components/ui/CoinIcon';

/**
 * The web half of the coin registry check: every coin of the contract's COIN_SPECS has its icon
 * and a display name in every locale. The API half (adapter, vectors, prices, table) is
 * apps/api/src/chains/registry.test.ts.
 */

const LOCALES_DIR = join(dirname(fileURLToPath(import.meta.url)), 'i18n', 'locales');
const require = createRequire(import.meta.url);
const ICON_SOURCE = readFileSync(
  join(dirname(fileURLToPath(import.meta.url)), 'components', 'ui', 'CoinIcon.tsx'),
  'utf8',
);

/** The text at a dotted key ("coins.BTC") of locales/<lang>/common.json, or undefined. */
function commonText(lang: string, key: string): unknown {
  const common: unknown = JSON.parse(readFileSync(join(LOCALES_DIR, lang, 'common.json'), 'utf8'));
  return key.split('.').reduce<unknown>((node, part) => {
    if (node && typeof node === 'object' && part in node) return (node as Record<string, unknown>)[part];
    return undefined;
  }, common);
}

describe.each(COINS)('coin registry in the web app: %s', (coin) => {
  const spec = coinSpec(coin);

  it('has its icon (components/ui/CoinIcon.tsx), the file the registry names', () => {
    const icon = COIN_ICONS[coin];
    expect(typeof icon === 'string' && icon.length > 0, `no icon for ${coin} in CoinIcon.tsx`).toBe(true);
    // Small SVGs are inlined as data: URLs, so the file is checked where it is imported.
    expect(ICON_SOURCE).toContain(`'cryptocurrency-icons/svg/color/${spec.icon}.svg'`);
    expect(existsSync(require.resolve(`cryptocurrency-icons/svg/color/${spec.icon}.svg`))).toBe(true);
  });

  it.each(LANGUAGES)('has a display name in %s (common.json, the registry nameKey)', (lang) => {
    const text = commonText(lang, spec.nameKey);
    expect(
      typeof text === 'string' && text.trim().length > 0,
      `${lang}/common.json lacks ${spec.nameKey}`,
    ).toBe(true);
  });
});

describe('coin registry in the web app: nothing beyond the registry', () => {
  it('has icons and locale names only for registry coins', () => {
    expect(Object.keys(COIN_ICONS).sort()).toEqual([...COINS].sort());
    expect(new Set(Object.values(COIN_ICONS)).size).toBe(COINS.length);
    for (const lang of LANGUAGES) {
      const names = commonText(lang, 'coins');
      expect(Object.keys(names ?? {}).sort(), lang).toEqual([...COINS].sort());
    }
  });

  it('detects a missing name (the check can fail)', () => {
    expect(commonText('en', 'coins.NOPE')).toBeUndefined();
  });
});
