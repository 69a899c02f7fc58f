import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('GET /api/v1/company', () => {
  it('answers the configured business details to anyone, publicly cacheable', async () => {
    t = await createTestApp(
      {
        COMPANY_NAME: '(주)코인마켓',
        COMPANY_CEO: '홍길동',
        COMPANY_REG_NO: '123-45-67890',
        COMPANY_VASP_NO: '2024-VASP-001',
        COMPANY_SUPPORT: ' 1588-0000 ',
      },
      { skipStartupTasks: true },
    );
    const r = await t.call('GET', '/api/v1/company');
    expect(r.status).toBe(200);
    expect(r.body.returnData).toEqual({
      name: '(주)코인마켓',
      ceo: '홍길동',
      regNo: '123-45-67890',
      vaspNo: '2024-VASP-001',
      support: '1588-0000',
    });
    const raw = await t.app.inject({ method: 'GET', url: '/api/v1/company' });
    expect(raw.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('answers null for what is not configured (empty counts as unset)', async () => {
    t = await createTestApp(
      { COMPANY_NAME: 'Coin Market Inc.', COMPANY_CEO: '  ' },
      { skipStartupTasks: true },
    );
    const r = await t.call('GET', '/api/v1/company');
    expect(r.body.returnData).toEqual({
      name: 'Coin Market Inc.',
      ceo: null,
      regNo: null,
      vaspNo: null,
      support: null,
    });
  });
});
