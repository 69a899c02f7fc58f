import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAccessTokens } from './tokens.ts';

const SID = '2f1c0a4e-9b7d-4c1e-8f3a-5d6e7f809a1b';

/**
 * Access tokens (DECISIONS §6, §13): a token verified once is remembered until its `exp`, which must
 * never let an expired, altered or foreign token through.
 */
describe('access tokens', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('verifies a token again from memory with the same claims, and refuses it once expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-22T10:00:00Z'));
    const tokens = createAccessTokens(randomBytes(32), 60);
    const token = await tokens.sign({ memberId: 7, role: 'MEMBER', sid: SID });
    // with its expiry (epoch seconds): the event stream ends then (DECISIONS §21)
    const exp = Date.parse('2026-11-22T10:01:00Z') / 1000;
    expect(await tokens.verify(token)).toEqual({ memberId: 7, role: 'MEMBER', sid: SID, exp });
    vi.setSystemTime(new Date('2026-11-22T10:00:59Z'));
    expect(await tokens.verify(token)).toEqual({ memberId: 7, role: 'MEMBER', sid: SID, exp });
    // remembered, but past `exp`: refused as jose would refuse it
    vi.setSystemTime(new Date('2026-11-22T10:01:00Z'));
    await expect(tokens.verify(token)).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' });
    // a token first seen after its expiry is refused by jose itself
    const fresh = createAccessTokens(randomBytes(32), 60);
    const late = await fresh.sign({ memberId: 8, role: 'MEMBER', sid: SID });
    vi.setSystemTime(new Date('2026-11-22T10:02:00Z'));
    await expect(fresh.verify(late)).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' });
  });

  it('refuses an altered token and one signed with another key, even after the genuine one was verified', async () => {
    const tokens = createAccessTokens(randomBytes(32), 60);
    const other = createAccessTokens(randomBytes(32), 60);
    const token = await tokens.sign({ memberId: 7, role: 'MEMBER', sid: SID });
    await tokens.verify(token);
    const [head, body, sig] = token.split('.');
    const payload = JSON.parse(Buffer.from(body ?? '', 'base64url').toString()) as Record<string, unknown>;
    const forged = `${head}.${Buffer.from(JSON.stringify({ ...payload, sub: '8' })).toString('base64url')}.${sig}`;
    await expect(tokens.verify(forged)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(tokens.verify(`${token.slice(0, -2)}AA`)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(other.verify(token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    // refused twice: nothing refused is remembered as good
    await expect(tokens.verify(forged)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
