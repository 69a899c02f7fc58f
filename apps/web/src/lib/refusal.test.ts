import { describe, expect, it } from 'vitest';
import i18n from '../i18n';
import { ApiError } from './api-client';
import { refusalStep } from './refusal';

describe('every DECISIONS §19 refusal leads to the step that lifts it', () => {
  const refused = (code: string, data: Record<string, unknown> = {}) =>
    refusalStep(new ApiError(code, 422, {}, data));

  it('maps each code to its section of the verification center (or the block list)', () => {
    expect(refused('KYC_REQUIRED', { level: 1 })?.to).toBe('/verification#identity');
    expect(refused('KYC_REQUIRED', { level: 2 })?.to).toBe('/verification#document');
    expect(refused('KYC_DOCUMENT_PENDING')?.to).toBe('/verification#document');
    expect(refused('BANK_ACCOUNT_NOT_VERIFIED')?.to).toBe('/verification#bank');
    expect(refused('ACCOUNT_HOLDER_MISMATCH')?.to).toBe('/verification#bank');
    expect(refused('WITHDRAWAL_HELD', { until: '2026-11-29T00:00:00Z', heldAmount: '0.1' })?.to).toBe(
      '/verification#holds',
    );
    expect(refused('BLOCKED')?.to).toBe('/account#blocks');
    expect(refused('INSUFFICIENT_BALANCE')).toBeUndefined();
    expect(refusalStep(new Error('network'))).toBeUndefined();
  });

  it('each link has its text in kr, en and jp', async () => {
    await i18n.loadNamespaces('common');
    const codes: [string, Record<string, unknown>][] = [
      ['KYC_REQUIRED', { level: 1 }],
      ['KYC_REQUIRED', { level: 2 }],
      ['BANK_ACCOUNT_NOT_VERIFIED', {}],
      ['WITHDRAWAL_HELD', {}],
      ['BLOCKED', {}],
    ];
    for (const lng of ['kr', 'en', 'jp']) {
      await i18n.changeLanguage(lng);
      for (const [code, data] of codes) {
        const key = refused(code, data)?.labelKey ?? '';
        expect(i18n.exists(key), `${lng} ${key}`).toBe(true);
        expect(i18n.exists(`common:errors.${code}`), `${lng} ${code}`).toBe(true);
      }
    }
  });
});
