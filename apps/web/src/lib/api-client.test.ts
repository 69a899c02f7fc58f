import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A Map-backed Storage for the node test environment. */
class MemoryStorage {
  private m = new Map<string, string>();
  getItem(k: string) {
    return this.m.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.m.set(k, v);
  }
  removeItem(k: string) {
    this.m.delete(k);
  }
  clear() {
    this.m.clear();
  }
}

const assign = vi.fn();
const local = new MemoryStorage();

function envelope(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

beforeEach(() => {
  local.clear();
  assign.mockReset();
  vi.stubGlobal('window', { localStorage: local, sessionStorage: new MemoryStorage(), location: { assign } });
  vi.resetModules();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

async function client() {
  return import('./api-client');
}

describe('api client (SPEC §7, §4; DECISIONS §2, §6)', () => {
  it('unwraps returnData and sends the bearer from localStorage', async () => {
    local.setItem('accessToken', 'tok-1');
    const fetchMock = vi.fn(async () =>
      envelope(200, { returnCode: 0, returnMessage: 'OK', returnData: { a: 1 } }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const { api } = await client();
    expect(await api.get('/my')).toEqual({ a: 1 });
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer tok-1');
    expect(init.signal).toBeInstanceOf(AbortSignal);
  });

  it('turns a nonzero returnCode into an ApiError with code, status and fields', async () => {
    vi.stubGlobal('fetch', async () =>
      envelope(400, {
        returnCode: 400,
        returnMessage: 'VALIDATION_FAILED',
        returnData: { fields: { loginId: 'ID_LENGTH' } },
      }),
    );
    const { api, ApiError } = await client();
    const err = await api.post('/api/v1/members/check-id', { loginId: 'a' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'VALIDATION_FAILED', status: 400, fields: { loginId: 'ID_LENGTH' } });
  });

  it('reports transport failures and timeouts as NETWORK_ERROR / TIMEOUT', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('fetch failed');
    });
    const { api } = await client();
    await expect(api.get('/x')).rejects.toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
    vi.stubGlobal('fetch', async () => {
      throw new DOMException('timed out', 'TimeoutError');
    });
    await expect(api.get('/x')).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('on a 401 refreshes once, stores both new tokens and retries', async () => {
    local.setItem('accessToken', 'old');
    local.setItem('refreshToken', 'r-old');
    const calls: string[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      const auth = (init.headers as Record<string, string>).authorization ?? '';
      calls.push(`${url} ${auth}`);
      if (url.endsWith('/api/v1/auth/refresh')) {
        expect(JSON.parse(String(init.body))).toEqual({ refreshToken: 'r-old' });
        return envelope(200, {
          returnCode: 0,
          returnMessage: 'OK',
          returnData: { accessToken: 'new', refreshToken: 'r-new' },
        });
      }
      return auth === 'Bearer new'
        ? envelope(200, { returnCode: 0, returnMessage: 'OK', returnData: 'ok' })
        : envelope(401, { returnCode: 401, returnMessage: 'TOKEN_EXPIRED', returnData: null });
    });
    const { api } = await client();
    const { useSession } = await import('./session');
    expect(await api.get('/my')).toBe('ok');
    expect(calls).toEqual(['/my Bearer old', '/api/v1/auth/refresh ', '/my Bearer new']);
    expect([local.getItem('accessToken'), local.getItem('refreshToken')]).toEqual(['new', 'r-new']);
    // the profile is refetched after a refresh (SPEC §4): SessionCheck watches this counter
    expect(useSession.getState()).toMatchObject({ accessToken: 'new', refreshes: 1, ended: null });
    expect(assign).not.toHaveBeenCalled();
  });

  it('a 401 that lands after another call refreshed retries with the new token, no second refresh', async () => {
    local.setItem('accessToken', 'old');
    local.setItem('refreshToken', 'r-old');
    const calls: string[] = [];
    let answerSlowCall: () => void = () => undefined;
    const slowCallAnswered = new Promise<void>((r) => {
      answerSlowCall = r;
    });
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      const auth = (init.headers as Record<string, string>).authorization ?? '';
      calls.push(`${url} ${auth}`);
      if (url.endsWith('/api/v1/auth/refresh')) {
        return envelope(200, {
          returnCode: 0,
          returnMessage: 'OK',
          returnData: { accessToken: 'new', refreshToken: 'r-new' },
        });
      }
      // The slow call's 401 arrives only once the fast call has refreshed.
      if (url === '/slow' && auth === 'Bearer old') await slowCallAnswered;
      return auth === 'Bearer new'
        ? envelope(200, { returnCode: 0, returnMessage: 'OK', returnData: url })
        : envelope(401, { returnCode: 401, returnMessage: 'TOKEN_EXPIRED', returnData: null });
    });
    const { api } = await client();
    const { useSession } = await import('./session');
    const slow = api.get('/slow');
    expect(await api.get('/fast')).toBe('/fast');
    answerSlowCall();
    expect(await slow).toBe('/slow');
    expect(calls.filter((c) => c.includes('/refresh'))).toHaveLength(1);
    expect(calls.at(-1)).toBe('/slow Bearer new');
    expect(useSession.getState()).toMatchObject({ refreshes: 1, ended: null });
  });

  it('when the refresh fails: removes the tokens, keeps the language, says why, no silent redirect', async () => {
    local.setItem('accessToken', 'old');
    local.setItem('refreshToken', 'r-old');
    local.setItem('userInfo', '{}');
    local.setItem('language', 'jp');
    let refreshes = 0;
    vi.stubGlobal('fetch', async (url: string) => {
      if (url.endsWith('/refresh')) refreshes += 1;
      return envelope(401, { returnCode: 401, returnMessage: 'UNAUTHORIZED', returnData: null });
    });
    const { api } = await client();
    const { useSession } = await import('./session');
    await expect(api.get('/my')).rejects.toMatchObject({ status: 401 });
    expect(refreshes).toBe(1);
    expect([local.getItem('accessToken'), local.getItem('refreshToken'), local.getItem('userInfo')]).toEqual([
      null,
      null,
      null,
    ]);
    expect(local.getItem('language')).toBe('jp');
    expect(useSession.getState()).toMatchObject({ accessToken: null, ended: 'refreshFailed' });
    expect(assign).not.toHaveBeenCalled();
  });

  it('a 401 with no refresh token ends the session as expired', async () => {
    local.setItem('accessToken', 'old');
    vi.stubGlobal('fetch', async () =>
      envelope(401, { returnCode: 401, returnMessage: 'UNAUTHORIZED', returnData: null }),
    );
    const { api } = await client();
    const { useSession } = await import('./session');
    await expect(api.get('/my')).rejects.toMatchObject({ status: 401 });
    expect(local.getItem('accessToken')).toBeNull();
    expect(useSession.getState().ended).toBe('expired');
  });

  it('a 401 without a stored token is just an error (visitors are not redirected)', async () => {
    vi.stubGlobal('fetch', async () =>
      envelope(401, { returnCode: 401, returnMessage: 'UNAUTHORIZED', returnData: null }),
    );
    const { api } = await client();
    await expect(api.get('/my')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(assign).not.toHaveBeenCalled();
  });
});

describe('createApiClient: one client, its own token store (the console)', () => {
  it('refreshes with its own tokens, ends only its own session and sees refusals', async () => {
    local.setItem('accessToken', 'member');
    const stored = { access: 'ops-old', refresh: 'ops-r' };
    const ended: boolean[] = [];
    const seen: number[] = [];
    const calls: string[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push(`${url} ${(init.headers as Record<string, string>).authorization ?? ''}`);
      if (url.endsWith('/refresh')) {
        return envelope(200, { returnCode: 0, returnMessage: 'OK', returnData: { accessToken: 'ops-new' } });
      }
      return envelope(403, { returnCode: 403, returnMessage: 'FORBIDDEN', returnData: null });
    });
    const { createApiClient, ApiError } = await client();
    const ops = createApiClient({
      accessToken: () => stored.access,
      refreshToken: () => stored.refresh,
      refreshed: (a) => {
        stored.access = a;
      },
      refreshFailed: () => undefined,
      sessionEnded: (had) => ended.push(had),
      failed: (e) => {
        if (e instanceof ApiError) seen.push(e.status);
      },
    });
    await expect(ops.get('/ops/api/v1/summary')).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(seen).toEqual([403]);
    expect(calls).toEqual(['/ops/api/v1/summary Bearer ops-old']);
    expect(await ops.refreshTokens()).toBe(true);
    expect(stored.access).toBe('ops-new');
    expect(ended).toEqual([]);
    // the member's tokens were neither used nor touched
    expect(local.getItem('accessToken')).toBe('member');
  });
});
