import { josa } from 'es-hangul';
import i18n from 'i18next';

/** The particle pairs the Korean texts use, as es-hangul names them. */
const PAIRS = ['이/가', '을/를', '은/는', '으로/로', '와/과', '이에요/예요'] as const;
type Pair = (typeof PAIRS)[number];

const isPair = (p: unknown): p is Pair => typeof p === 'string' && (PAIRS as readonly string[]).includes(p);

/**
 * A word with its particle chosen by its last syllable (es-hangul's josa, from Toss): "BTC를", "주문 #12를",
 * "김민수가". Texts write `{{coin, josa(p: 을/를)}}`; never "을(를)".
 */
export function withJosa(value: unknown, pair: unknown): string {
  const word = String(value ?? '');
  return isPair(pair) ? josa(word, pair) : word;
}

// Registered once i18next has made its formatter (init), before any text is read.
i18n.on('initialized', () => {
  i18n.services.formatter?.add('josa', (value, _lng, options: { p?: string }) => withJosa(value, options.p));
});
