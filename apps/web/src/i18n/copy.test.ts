import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { withJosa } from './josa';

/**
 * The Korean copy speaks with one voice (해요체) and picks its particles by the word (es-hangul's josa), never
 * "을(를)"; 트랜잭션 has one spelling; 보다 sticks to its noun. The operator console (ops) and the legal texts
 * (terms and policy, a document's register) are outside the 해요체 rule; the particle rule covers every file.
 */

const KR = join(dirname(fileURLToPath(import.meta.url)), 'locales/kr');
const NOT_HAEYO = new Set(['ops.json', 'legal.json']);

/** Every text of a locale file with its dotted key. */
function texts(file: string): [string, string][] {
  const out: [string, string][] = [];
  const walk = (v: unknown, key: string) => {
    if (typeof v === 'string') out.push([key, v]);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) walk(x, key ? `${key}.${k}` : k);
  };
  walk(JSON.parse(readFileSync(join(KR, file), 'utf8')), '');
  return out;
}

const files = readdirSync(KR).filter((f) => f.endsWith('.json'));

/** A particle written for both cases, e.g. 을(를), 이(가), (으)로, 와(과). */
const BOTH_PARTICLES = /\((?:을|를|이|가|은|는|와|과|으)\)/;
/** A 합쇼체 ending (not 해요체): -ㅂ니다 / -습니다 at the end of a sentence, or a -니까? question. */
const HAPSHIDA = /[가-힣](?:니다|니까)(?=[.!?'")\s]|$)/;

/** The texts of `files` that `re` finds, as "file key: text". */
function offenders(re: RegExp, only: (f: string) => boolean): string[] {
  return files.filter(only).flatMap((f) =>
    texts(f)
      .filter(([, v]) => re.test(v))
      .map(([k, v]) => `${f} ${k}: ${v}`),
  );
}

describe('Korean copy', () => {
  it('never writes a particle for both cases ("을(를)", "이(가)", "(으)로")', () => {
    expect(offenders(BOTH_PARTICLES, () => true)).toEqual([]);
  });

  it('speaks 해요체 in the member app: no 합쇼체 endings', () => {
    expect(offenders(HAPSHIDA, (f) => !NOT_HAEYO.has(f))).toEqual([]);
  });

  it('spells 트랜잭션 one way and attaches 보다 to its noun', () => {
    // the misspelling 트랜젝션 (젝, not 잭)
    expect(offenders(new RegExp('트랜' + '젝션'), () => true)).toEqual([]);
    expect(offenders(/ 보다 /, () => true)).toEqual([]);
  });

  it('the checks can fail: they find what they look for', () => {
    expect(BOTH_PARTICLES.test('주문 #3을(를) 취소할까요?')).toBe(true);
    expect(BOTH_PARTICLES.test('{{phone}}(으)로 보냈어요')).toBe(true);
    expect(HAPSHIDA.test('로그인에 실패했' + '습니다.')).toBe(true);
    expect(HAPSHIDA.test('거래를 취소하시겠' + '습니까?')).toBe(true);
    expect(HAPSHIDA.test('로그인에 실패했어요.')).toBe(false);
  });

  it('picks the particle by the last syllable (es-hangul josa)', () => {
    expect(withJosa('김민수', '이/가')).toBe('김민수가');
    expect(withJosa('박영희', '을/를')).toBe('박영희를');
    expect(withJosa('주문', '을/를')).toBe('주문을');
    expect(withJosa('휴대폰', '으로/로')).toBe('휴대폰으로');
    expect(withJosa('BTC', '을/를')).toBe('BTC를');
    expect(withJosa('계정', '이에요/예요')).toBe('계정이에요');
    expect(withJosa('word', 'not a pair')).toBe('word');
  });
});
