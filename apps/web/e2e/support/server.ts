import type { AddressInfo } from 'node:net';
import { type FakeUpstream, startFakeUpstream } from '../../../api/src/modules/prices/fake-upstream.ts';
import { createTestApp, type TestApp } from '../../../api/test/helpers.ts';
import { ensureWebBuild } from './build.ts';

export interface E2EServer {
  /** http://127.0.0.1:<port>: the API and the built web app on one port, as `npm start` serves them. */
  baseUrl: string;
  /** The API on its fresh database: `t.call(...)`, `t.app.deps.db`, `t.assertLedger()`. */
  t: TestApp;
  /** The fake price provider; set `prices.mode = 'error'` to make the upstream fail. */
  prices: FakeUpstream;
  /** The newest SMS code sent to `phoneE164` (GET /dev/sms/outbox, DECISIONS §10). */
  /**
   * The newest code in the dev outbox for the phone, polling up to 10 s until there is one sent at or after
   * `sentAfterMs` (default: any). Pass `Date.now()` from before a tap that sends a code when the phone already
   * had one: the tap returns before the request lands, and the previous code is then still the newest.
   */
  smsCode: (phoneE164: string, sentAfterMs?: number) => Promise<string>;
  close: () => Promise<void>;
}

/**
 * Starts the whole system for a browser test: a build of the current web sources (see ensureWebBuild), a fake
 * CoinGecko on 127.0.0.1, and the API (buildApp through createTestApp: a fresh PostgreSQL database when
 * DATABASE_URL is set, else in-memory PGlite) serving the web app, listening on a free port.
 * `env` overrides configuration variables.
 */
export async function startE2EServer(env: Record<string, string> = {}): Promise<E2EServer> {
  const webDistDir = ensureWebBuild();
  const prices = await startFakeUpstream();
  let t: TestApp;
  try {
    t = await createTestApp(
      {
        PRICE_PROVIDER: 'coingecko',
        PRICE_UPSTREAM_URL: prices.url,
        WEB_DIST_DIR: webDistDir,
        SMS_RESEND_COOLDOWN_SEC: '0',
        SMS_PER_IP_PER_HOUR: '1000',
        SMS_PER_PHONE_PER_HOUR: '1000',
        SMS_PER_MEMBER_PER_HOUR: '1000',
        // DECISIONS §19: members signed up through the UI trade at once in the suites not about identity
        // levels; verification-center.test.ts sets KYC_TRADE_LEVEL=1.
        KYC_TRADE_LEVEL: '0',
        ...env,
      },
      { serveWeb: true },
    );
  } catch (err) {
    await prices.close();
    throw err;
  }
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;

  // The newest code sent to a phone. A click on 인증번호 전송 returns before its request reaches the server, so
  // a code not there yet is waited for (up to 10 s) rather than reported missing.
  const smsCode = async (phoneE164: string, sentAfterMs = 0) => {
    const url = `/dev/sms/outbox?phone=${encodeURIComponent(phoneE164)}`;
    for (let waited = 0; ; waited += 100) {
      const r = await t.call<{ code: string; sentAt: string }>('GET', url);
      // The server runs in this process: sentAt and Date.now() read the same clock.
      if (r.status === 200 && Date.parse(r.body.returnData.sentAt) >= sentAfterMs)
        return r.body.returnData.code;
      if (waited >= 10_000) throw new Error(`no SMS code for ${phoneE164}: ${JSON.stringify(r.body)}`);
      await new Promise((done) => setTimeout(done, 100));
    }
  };

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    t,
    prices,
    smsCode,
    close: async () => {
      await t.close();
      await prices.close();
    },
  };
}
