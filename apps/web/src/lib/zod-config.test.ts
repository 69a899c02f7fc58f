import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/**
 * public/boot.js turns zod's JIT off before zod loads (no `new Function` probe under the CSP) by writing
 * globalThis.__zod_globalConfig. This keeps that hook honest: if a zod upgrade moves its config elsewhere,
 * this fails instead of the CSP violation quietly coming back.
 */
describe('zod config hook used by boot.js', () => {
  it('is the object z.config() returns', () => {
    const hook = Reflect.get(globalThis, '__zod_globalConfig');
    expect(hook).toBe(z.config());
  });
});
