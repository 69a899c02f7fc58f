/**
 * `npm run audit:security`: runs the attack list of docs/security.md, and those of the review behind DECISIONS §21, against a
 * running server and prints, per attack, what was tried, what the server answered and whether that is the
 * defence DECISIONS §13/§14/§21 require. The forged X-Forwarded-For attack goes through the cluster's HAProxy
 * configuration (scripts/cluster.mjs) in front of the server, and is skipped when haproxy is not installed.
 * The next reviewer starts from here; docs/security.md holds its output and how each defence works.
 *
 *   npm run audit:security                      # starts its own server (embedded DB, demo data) and audits it
 *   DATABASE_URL=postgres://... npm run audit:security   # same on a fresh database of that PostgreSQL server
 *                                                        # (adds the dropped-connection attack)
 *   npm run audit:security -- --markdown        # the table as Markdown (docs/security.md)
 *
 * Exits 1 when any attack did harm. The server it starts is a development server (dev SMS outbox, demo
 * members), which is what lets the attacks read codes and sign in as the demo buyer and seller.
 */
import { spawn } from 'node:child_process';
import { createECDH, randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { minPurchaseKrw, receiveQty } from '@p2p/contract/money.ts';
import { SignJWT } from 'jose';
import pg from 'pg';
import { findHaproxy, startHaproxy } from '../../../../scripts/cluster.mjs';
import bip84 from '../chains/vectors/bip84.json' with { type: 'json' };

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

interface Answer {
  status: number;
  body: { returnCode?: number; returnMessage?: string; returnData?: unknown } | null;
  headers: Headers;
}

interface Outcome {
  /** True when the server defended: the attack did no harm. */
  defended: boolean;
  /** What the server answered, short. */
  seen: string;
}

interface Attack {
  finding: string;
  attack: string;
  run: () => Promise<Outcome>;
}

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      srv.close(() => res(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

class Client {
  constructor(readonly base: string) {}

  async call(
    method: string,
    path: string,
    o: { body?: unknown; token?: string | undefined; ip?: string } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    // The audited server trusts one proxy hop (TRUST_PROXY_HOPS=1) and is called directly here, so the one
    // address this header holds is taken as the client's: one machine can play many addresses.
    if (o.ip) headers['x-forwarded-for'] = o.ip;
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers,
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
    });
    const text = await res.text();
    let body: Answer['body'] = null;
    try {
      body = JSON.parse(text) as Answer['body'];
    } catch {
      body = null;
    }
    return { status: res.status, body, headers: res.headers };
  }

  async login(loginId: string, password: string, ip = '10.0.0.1') {
    const r = await this.call('POST', '/api/v1/auth/login', { body: { loginId, password }, ip });
    const data = r.body?.returnData as { accessToken: string; refreshToken: string } | undefined;
    if (r.status !== 200 || !data) throw new Error(`login ${loginId}: ${r.status} ${r.body?.returnMessage}`);
    return data;
  }

  async smsCode(phone: string): Promise<string> {
    const r = await this.call('GET', `/dev/sms/outbox?phone=${encodeURIComponent(phone)}`);
    const data = r.body?.returnData as { code: string } | undefined;
    if (!data) throw new Error(`no SMS code for ${phone}`);
    return data.code;
  }

  /** Signs a new member up over HTTP (phone code from the dev outbox) and signs in. */
  async newMember(ip: string) {
    const phone = `+8210${randomInt(60_000_000, 99_999_999)}`;
    const loginId = `a${randomBytes(4).toString('hex')}`;
    const password = 'audit-pass1';
    await this.call('POST', '/sms/request', { body: { phone }, ip });
    await this.call('POST', '/sms/verify', { body: { phone, code: await this.smsCode(phone) }, ip });
    const s = await this.call('POST', '/api/v1/members/signup', {
      body: { loginId, password, name: 'Audit Kim', nickname: loginId, countryCode: '82', phoneE164: phone },
      ip,
    });
    if (s.status !== 201) throw new Error(`signup: ${s.status} ${s.body?.returnMessage}`);
    return { loginId, password, phone, ...(await this.login(loginId, password, ip)) };
  }
}

const said = (r: Answer) => {
  const fields = (r.body?.returnData as { fields?: unknown } | null | undefined)?.fields;
  return `${r.status} ${r.body?.returnMessage ?? ''}${fields ? ` ${JSON.stringify(fields)}` : ''}`.trim();
};

function attacks(c: Client, o: { jwtSecret: string; dbAdmin?: { url: string; name: string } }): Attack[] {
  const list: Attack[] = [];

  if (o.dbAdmin) {
    const admin = o.dbAdmin;
    list.push({
      finding: 'one terminated PostgreSQL connection ended the API process',
      attack: 'pg_terminate_backend on every connection of the app, then /readyz and a signed-in call',
      run: async () => {
        const m = await c.newMember('10.1.0.1');
        await c.call('GET', '/my', { token: m.accessToken });
        const client = new pg.Client({ connectionString: admin.url });
        await client.connect();
        await client.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [admin.name],
        );
        await client.end();
        let ready: Answer | undefined;
        for (let i = 0; i < 20; i++) {
          ready = await c.call('GET', '/readyz').catch(() => undefined);
          if (ready?.status === 200) break;
          await new Promise((r) => setTimeout(r, 250));
        }
        const my = await c.call('GET', '/my', { token: m.accessToken });
        return {
          defended: ready?.status === 200 && my.status === 200,
          seen: `readyz ${ready ? said(ready) : 'refused'}, GET /my ${said(my)}`,
        };
      },
    });
  }

  list.push({
    finding: 'a stolen 15-minute access token could change password, phone and bank account',
    attack: 'PUT /my with a new password / bank account and the access token only',
    run: async () => {
      const m = await c.newMember('10.1.0.2');
      const base = {
        nickName: m.loginId,
        countryCode: '82',
        phoneE164: m.phone,
        bankName: 'KB국민은행',
        accountNo: '111222333444',
      };
      // The member's own first save of a bank account, with the password: the control.
      const own = await c.call('PUT', '/my', {
        token: m.accessToken,
        body: { ...base, currentPassword: m.password },
      });
      const pw = await c.call('PUT', '/my', {
        token: m.accessToken,
        body: { ...base, password: 'taken-over1' },
      });
      const bank = await c.call('PUT', '/my', {
        token: m.accessToken,
        body: { ...base, accountNo: '999888777666' },
      });
      const wrong = await c.call('PUT', '/my', {
        token: m.accessToken,
        body: { ...base, password: 'taken-over1', currentPassword: 'guess-123' },
      });
      return {
        defended:
          own.status === 200 &&
          pw.body?.returnMessage === 'CURRENT_PASSWORD_REQUIRED' &&
          bank.body?.returnMessage === 'CURRENT_PASSWORD_REQUIRED' &&
          wrong.body?.returnMessage === 'INVALID_CREDENTIALS',
        seen: `own change ${said(own)}; password ${said(pw)}; bank ${said(bank)}; wrong current ${said(wrong)}`,
      };
    },
  });

  list.push({
    finding: 'a stolen access token could withdraw and release escrow',
    attack:
      'external withdrawal, transfer to another member, and the release of a live buy order without a step-up',
    run: async () => {
      const buyer = await c.login('demobuyer', 'buyer1234!', '10.1.0.3');
      const seller = await c.login('demoseller', 'seller1234!', '10.1.0.4');
      const wallets = (await c.call('GET', '/api/v1/wallets', { token: buyer.accessToken })).body
        ?.returnData as Array<{ id: number; coinCode: string }> | undefined;
      const sellerWallets = (await c.call('GET', '/api/v1/wallets', { token: seller.accessToken })).body
        ?.returnData as Array<{ id: number; coinCode: string }> | undefined;
      const sellerBtc = sellerWallets?.find((w) => w.coinCode === 'BTC');
      const withdraw = await c.call('POST', '/transfer/request', {
        token: seller.accessToken,
        body: {
          fromWalletId: sellerBtc?.id ?? 1,
          destType: 'EXTERNAL',
          amount: '0.001',
          destExternalAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
        },
      });
      const buyerBtcAddress = (wallets as Array<{ coinCode: string; address?: string }> | undefined)?.find(
        (w) => w.coinCode === 'BTC',
      )?.address;
      const internal = await c.call('POST', '/transfer/request', {
        token: seller.accessToken,
        body: {
          fromWalletId: sellerBtc?.id ?? 1,
          destType: 'INTERNAL',
          amount: '0.001',
          destInternalAddress: buyerBtcAddress ?? 'none',
        },
      });
      // A live order of the demo buyer on the demo seller's BTC listing, then the release without a step-up.
      const me = (await c.call('GET', '/my', { token: buyer.accessToken })).body?.returnData as {
        phoneE164: string;
      };
      await c.call('POST', '/sms/request', { token: buyer.accessToken, body: { phone: me.phoneE164 } });
      await c.call('POST', '/sms/verify', {
        token: buyer.accessToken,
        body: { phone: me.phoneE164, code: await c.smsCode(me.phoneE164) },
      });
      const list = (await c.call('GET', '/api/v1/sell-listings?coin=BTC&size=50')).body?.returnData as {
        list: Array<{ listingId: number; sellerNickname: string; unitPriceKrw: number; minQty: string }>;
      };
      const listing = list.list.find((l) => l.sellerNickname === 'demoseller');
      const buyerBtc = wallets?.find((w) => w.coinCode === 'BTC');
      if (!listing || !buyerBtc) return { defended: false, seen: 'no demo listing or wallet to test with' };
      const krw = minPurchaseKrw(listing.minQty, listing.unitPriceKrw) + 10_000;
      const order = await c.call('POST', '/buy-orders', {
        token: buyer.accessToken,
        body: {
          listingId: listing.listingId,
          krwAmount: krw,
          requestQty: receiveQty(krw, listing.unitPriceKrw),
          destType: 'INTERNAL',
          destWalletId: buyerBtc.id,
        },
      });
      const orderId = (order.body?.returnData as { orderId?: number } | undefined)?.orderId;
      const release = await c.call('POST', `/buy-orders/${orderId ?? 0}/complete`, {
        token: seller.accessToken,
        body: { txid: 'audit' },
      });
      if (orderId) await c.call('POST', `/buy-orders/${orderId}/cancel`, { token: buyer.accessToken });
      return {
        defended:
          withdraw.body?.returnMessage === 'STEP_UP_REQUIRED' &&
          internal.body?.returnMessage === 'STEP_UP_REQUIRED' &&
          order.status === 200 &&
          release.body?.returnMessage === 'STEP_UP_REQUIRED',
        seen: `withdrawal ${said(withdraw)}; transfer to another member ${said(internal)}; order ${said(order)}; release ${said(release)}`,
      };
    },
  });

  list.push({
    finding: 'verify-reset-password told a wrong phone (PHONE_MISMATCH) from the right one, unlimited',
    attack: 'guess the hidden digits of the masked phone against verify-reset-password',
    run: async () => {
      const m = await c.newMember('10.1.0.5');
      await c.call('POST', '/sms/request', {
        body: { purpose: 'reset', loginId: m.loginId },
        ip: '10.1.0.5',
      });
      const code = await c.smsCode(m.phone);
      const answers: string[] = [];
      for (let i = 0; i < 7; i++) {
        const guess = `+8210${randomInt(60_000_000, 99_999_999)}`;
        const r = await c.call('POST', '/api/v1/auth/verify-reset-password', {
          body: { id: m.loginId, code, phone: guess },
          ip: `10.1.1.${i + 1}`,
        });
        answers.push(r.body?.returnMessage ?? String(r.status));
      }
      const right = await c.call('POST', '/api/v1/auth/verify-reset-password', {
        body: { id: m.loginId, code, phone: m.phone },
        ip: '10.1.1.99',
      });
      const distinct = [...new Set(answers)];
      return {
        defended:
          !answers.includes('VALIDATION_FAILED') &&
          answers[0] === 'CODE_MISMATCH' &&
          right.status !== 200 &&
          answers.at(-1) === 'CODE_TRIES_EXCEEDED',
        seen: `wrong phones: ${distinct.join(', ')}; then the right phone and code: ${said(right)}`,
      };
    },
  });

  list.push({
    finding: 'the per-IP lookup budget was spent after the lookup, and some lookups spent none',
    attack: '301 lookups from one address over find-phone, verify-reset, SMS reset and signup codes',
    run: async () => {
      const ip = '10.1.2.1';
      const routes: Array<[string, () => unknown]> = [
        ['/api/v1/auth/find-phone', () => ({ id: `x${randomBytes(4).toString('hex')}` })],
        [
          '/api/v1/auth/verify-reset-password',
          () => ({ id: `x${randomBytes(4).toString('hex')}`, code: '123456' }),
        ],
        ['/sms/request', () => ({ purpose: 'reset', loginId: `x${randomBytes(4).toString('hex')}` })],
        ['/api/v1/members/check-id', () => ({ loginId: `x${randomBytes(4).toString('hex')}` })],
      ];
      let first429 = -1;
      for (let i = 0; i < 320 && first429 < 0; i++) {
        const [url, body] = routes[i % routes.length] as [string, () => unknown];
        const r = await c.call('POST', url, { body: body(), ip });
        if (r.status === 429) first429 = i;
      }
      const known = await c.call('POST', '/api/v1/auth/find-phone', { body: { id: 'demoseller' }, ip });
      return {
        defended: first429 >= 0 && first429 <= 300 && known.status === 429,
        seen: `first 429 after ${first429} lookups; a lookup of a real id then: ${said(known)}`,
      };
    },
  });

  list.push({
    finding: 'operators could be reset by SMS (console takeover through the reset flow)',
    attack: 'find-phone and a reset code for the operator’s login id',
    run: async () => {
      const find = await c.call('POST', '/api/v1/auth/find-phone', {
        body: { id: 'auditops' },
        ip: '10.1.3.1',
      });
      const send = await c.call('POST', '/sms/request', {
        body: { purpose: 'reset', loginId: 'auditops' },
        ip: '10.1.3.1',
      });
      return {
        defended: find.status === 404 && send.status === 404,
        seen: `find-phone ${said(find)}; reset code ${said(send)}`,
      };
    },
  });

  list.push({
    finding: 'login limits were per id + IP only: spraying many ids from one address was never limited',
    attack: '60 wrong logins over 60 ids from one address',
    run: async () => {
      let first429 = -1;
      for (let i = 0; i < 60 && first429 < 0; i++) {
        const r = await c.call('POST', '/api/v1/auth/login', {
          body: { loginId: `spray${i}x`, password: 'guess-123' },
          ip: '10.1.4.1',
        });
        if (r.status === 429) first429 = i;
      }
      const other = await c.call('POST', '/api/v1/auth/login', {
        body: { loginId: 'demobuyer', password: 'buyer1234!' },
        ip: '10.1.4.2',
      });
      return {
        defended: first429 > 0 && first429 <= 50 && other.status === 200,
        seen: `first 429 after ${first429} failures; a member elsewhere signs in: ${said(other)}`,
      };
    },
  });

  if (findHaproxy()) list.push(forgedClientAddress(c));
  else
    process.stderr.write('audit: haproxy is not installed; the forged X-Forwarded-For attack is skipped\n');

  list.push(smsPumping(c), phoneChangeCodeElsewhere(c));

  list.push({
    finding: 'a phone verified by member A could be put into member B’s profile',
    attack: 'A verifies a fresh phone; B puts it into their profile',
    run: async () => {
      const a = await c.newMember('10.1.5.1');
      const b = await c.newMember('10.1.5.2');
      const phone = `+8210${randomInt(60_000_000, 99_999_999)}`;
      await c.call('POST', '/sms/request', { token: a.accessToken, body: { phone } });
      const v = await c.call('POST', '/sms/verify', {
        token: a.accessToken,
        body: { phone, code: await c.smsCode(phone) },
      });
      const put = await c.call('PUT', '/my', {
        token: b.accessToken,
        body: {
          nickName: b.loginId,
          countryCode: '82',
          phoneE164: phone,
          bankName: 'KB국민은행',
          accountNo: '111222333444',
          currentPassword: b.password,
        },
      });
      return {
        defended: v.status === 200 && put.body?.returnMessage === 'PHONE_NOT_VERIFIED',
        seen: `A's verification ${said(v)}; B's PUT /my ${said(put)}`,
      };
    },
  });

  list.push({
    finding: 'access tokens of a revoked session kept working for 15 minutes; there was no logout',
    attack: 'logout, then GET /my with the old access token',
    run: async () => {
      const m = await c.newMember('10.1.6.1');
      const out = await c.call('POST', '/api/v1/auth/logout', { body: { refreshToken: m.refreshToken } });
      const my = await c.call('GET', '/my', { token: m.accessToken });
      return {
        defended: out.status === 200 && my.status === 401,
        seen: `logout ${said(out)}; GET /my ${said(my)}`,
      };
    },
  });

  list.push({
    finding: 'API answers carried no Cache-Control (profile with phone and bank account)',
    attack: 'GET /my and read its Cache-Control',
    run: async () => {
      const m = await c.newMember('10.1.7.1');
      const my = await c.call('GET', '/my', { token: m.accessToken });
      const cc = my.headers.get('cache-control') ?? '(none)';
      return { defended: cc.includes('no-store'), seen: `Cache-Control: ${cc}` };
    },
  });

  list.push({
    finding: 'nicknames and bank names accepted zero-width and bidi control characters',
    attack: 'sign up as "demo\\u200bseller"; check "ｄｅｍｏｓｅｌｌｅｒ" (full-width)',
    run: async () => {
      const phone = `+8210${randomInt(60_000_000, 99_999_999)}`;
      await c.call('POST', '/sms/request', { body: { phone }, ip: '10.1.8.1' });
      await c.call('POST', '/sms/verify', { body: { phone, code: await c.smsCode(phone) }, ip: '10.1.8.1' });
      const zw = await c.call('POST', '/api/v1/members/signup', {
        body: {
          loginId: `z${randomBytes(4).toString('hex')}`,
          password: 'audit-pass1',
          name: 'Audit Kim',
          nickname: 'demo\u200bseller',
          countryCode: '82',
          phoneE164: phone,
        },
        ip: '10.1.8.1',
      });
      const wide = await c.call('POST', '/api/v1/members/check-nickname', {
        body: { nickname: 'ｄｅｍｏｓｅｌｌｅｒ' },
        ip: '10.1.8.2',
      });
      const fields = JSON.stringify((zw.body?.returnData as { fields?: unknown } | null)?.fields ?? {});
      const available = (wide.body?.returnData as { available?: boolean } | undefined)?.available;
      return {
        defended: zw.status === 400 && fields.includes('INVALID_FORMAT') && available === false,
        seen: `zero-width signup ${said(zw)}; full-width available=${available}`,
      };
    },
  });

  list.push({
    finding: 'tokens without exp were accepted; sub "3abc" was read as 3',
    attack: 'correctly signed tokens without exp, with sub "<id>abc", without a session',
    run: async () => {
      const m = await c.newMember('10.1.9.1');
      const secret = new TextEncoder().encode(o.jwtSecret);
      const claims = JSON.parse(Buffer.from(m.accessToken.split('.')[1] ?? '', 'base64url').toString()) as {
        sub: string;
        sid: string;
      };
      const forge = (sub: string, extra: Record<string, unknown>, exp = true) => {
        let j = new SignJWT({ role: 'MEMBER', ...extra }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt();
        j = j.setSubject(sub);
        if (exp) j = j.setExpirationTime('10m');
        return j.sign(secret);
      };
      const control = await c.call('GET', '/my', { token: await forge(claims.sub, { sid: claims.sid }) });
      const noExp = await c.call('GET', '/my', {
        token: await forge(claims.sub, { sid: claims.sid }, false),
      });
      const sloppy = await c.call('GET', '/my', {
        token: await forge(`${claims.sub}abc`, { sid: claims.sid }),
      });
      const noSid = await c.call('GET', '/my', { token: await forge(claims.sub, {}) });
      return {
        defended: control.status === 200 && [noExp, sloppy, noSid].every((r) => r.status === 401),
        seen: `well-formed ${control.status}; no exp ${noExp.status}; sub+"abc" ${sloppy.status}; no sid ${noSid.status}`,
      };
    },
  });

  return list;
}

/**
 * DECISIONS §21: the cluster's HAProxy (scripts/cluster.mjs, its very configuration) in front of the audited
 * server, which trusts one hop. Every request claims another client address; they all come from this one,
 * so they must all spend this address's login-failure budget (LOGIN_MAX_FAILURES_PER_IP, 50).
 */
function forgedClientAddress(c: Client): Attack {
  return {
    finding:
      'behind the cluster’s HAProxy the server believed the X-Forwarded-For the client sent: every new header was a new per-IP budget',
    attack:
      '100 failed logins over 100 ids through the cluster’s HAProxy, each with another forged X-Forwarded-For',
    run: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'p2p-audit-lb-'));
      const lb = await startHaproxy({
        servers: [{ name: 'audited', port: Number(new URL(c.base).port) }],
        dir,
      });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 100; i++) {
          const forged = i % 2 ? `203.0.113.${i}` : `198.51.100.${i}, 10.2.${i}.1`;
          const res = await fetch(`${lb.url}/api/v1/auth/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': forged },
            body: JSON.stringify({ loginId: `forged${i}x`, password: 'guess-123' }),
          });
          await res.arrayBuffer();
          statuses.push(res.status);
        }
        const first429 = statuses.indexOf(429);
        const refused = statuses.filter((s) => s === 429).length;
        return {
          defended: first429 >= 0 && first429 <= 50 && refused === 100 - first429,
          seen: `first 429 after ${first429 < 0 ? 'none of the' : first429} failures; ${refused} of 100 refused`,
        };
      } finally {
        await lb.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** DECISIONS §21: a member's own SMS budget (SMS_PER_MEMBER_PER_HOUR, 10), whatever phones and addresses. */
function smsPumping(c: Client): Attack {
  return {
    finding: 'a signed-in member could have codes sent to any phone, limited only per phone and per address',
    attack: '11 codes to 11 phones from 11 addresses with one member’s access token',
    run: async () => {
      const m = await c.newMember('10.1.10.1');
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const phone = `+8210${randomInt(60_000_000, 99_999_999)}`;
        const r = await c.call('POST', '/sms/request', {
          token: m.accessToken,
          body: { phone },
          ip: `10.1.11.${i + 1}`,
        });
        statuses.push(r.status);
      }
      const first429 = statuses.indexOf(429);
      return {
        defended: first429 > 0 && first429 <= 10 && statuses.slice(first429).every((s) => s === 429),
        seen: `first 429 after ${first429 < 0 ? 'none of the' : first429} codes`,
      };
    },
  };
}

/**
 * DECISIONS §21: a code sent to another phone than the member's own serves only the move to that phone; once
 * moved, neither its verification nor a second code of it is a purchase check or a step-up.
 */
function phoneChangeCodeElsewhere(c: Client): Attack {
  return {
    finding:
      'a code sent to another phone than the member’s own passed the purchase check and the step-up once the member moved to that phone',
    attack:
      'verify a new phone, ask it a second code, move to it (with the password), then buy with that verification and withdraw with the second code',
    run: async () => {
      const m = await c.newMember('10.1.12.1');
      const phone = `+8210${randomInt(60_000_000, 99_999_999)}`;
      await c.call('POST', '/sms/request', { token: m.accessToken, body: { phone } });
      const verified = await c.call('POST', '/sms/verify', {
        token: m.accessToken,
        body: { phone, code: await c.smsCode(phone) },
      });
      await c.call('POST', '/sms/request', { token: m.accessToken, body: { phone } });
      const spare = await c.smsCode(phone);
      const moved = await c.call('PUT', '/my', {
        token: m.accessToken,
        body: {
          nickName: m.loginId,
          countryCode: '82',
          phoneE164: phone,
          bankName: 'KB국민은행',
          accountNo: '111222333444',
          currentPassword: m.password,
        },
      });
      const wallet = (
        await c.call('POST', '/api/v1/wallets/create', { token: m.accessToken, body: { coinCode: 'BTC' } })
      ).body?.returnData as { id: number } | undefined;
      const list = (await c.call('GET', '/api/v1/sell-listings?coin=BTC&size=50')).body?.returnData as {
        list: Array<{ listingId: number; sellerNickname: string; unitPriceKrw: number; minQty: string }>;
      };
      const listing = list.list.find((l) => l.sellerNickname === 'demoseller');
      if (!listing || !wallet) return { defended: false, seen: 'no demo listing or wallet to test with' };
      const krw = minPurchaseKrw(listing.minQty, listing.unitPriceKrw) + 10_000;
      const order = await c.call('POST', '/buy-orders', {
        token: m.accessToken,
        body: {
          listingId: listing.listingId,
          krwAmount: krw,
          requestQty: receiveQty(krw, listing.unitPriceKrw),
          destType: 'INTERNAL',
          destWalletId: wallet.id,
        },
      });
      const orderId = (order.body?.returnData as { orderId?: number } | undefined)?.orderId;
      if (orderId) await c.call('POST', `/buy-orders/${orderId}/cancel`, { token: m.accessToken });
      // No balance: a step-up that passed would show as the balance refusal after it.
      const withdraw = await c.call('POST', '/transfer/request', {
        token: m.accessToken,
        body: {
          fromWalletId: wallet.id,
          destType: 'EXTERNAL',
          amount: '0.001',
          destExternalAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
          stepUp: { code: spare },
        },
      });
      return {
        defended:
          verified.status === 200 &&
          moved.status === 200 &&
          order.body?.returnMessage === 'PURCHASE_NOT_VERIFIED' &&
          withdraw.body?.returnMessage === 'CODE_EXPIRED',
        seen: `verification ${said(verified)}; move ${said(moved)}; purchase ${said(order)}; withdrawal with the second code ${said(withdraw)}`,
      };
    },
  };
}

/**
 * DECISIONS §21: a push endpoint must never make the server call its own network. The audit runs an "internal
 * service" on this machine's loopback, subscribes the demo seller's push to it under the names and address forms
 * a host-name filter misses (a short name, a trailing dot, decimal and hex IPv4, IPv6 loopback and IPv4-mapped
 * forms), has a fresh member order from the seller (ORDER_REQUESTED goes out by push) and counts what reaches
 * the internal service. The audited server is a development one, which accepts any http(s) endpoint at subscribe
 * time: only the check of the resolved address at connection time stands in the way.
 */
function pushAddressAttack(c: Client): Attack {
  return {
    finding:
      'push endpoints were filtered by host name: names and forms resolving to internal addresses got through',
    attack:
      'push subscriptions to a loopback service as localhost, localhost., 2130706433, 0x7f.1, [::1], [::ffff:127.0.0.1]',
    run: async () => {
      const hits: string[] = [];
      const internal = createHttpServer((req, res) => {
        hits.push(req.url ?? '');
        req.resume();
        res.statusCode = 201;
        res.end();
      });
      // '::' takes IPv4 too where the host has IPv6; else IPv4 loopback only
      await new Promise<void>((ok) => {
        internal.once('error', () => internal.listen(0, '127.0.0.1', ok));
        internal.listen(0, '::', ok);
      });
      const port = (internal.address() as AddressInfo).port;
      try {
        const seller = await c.login('demoseller', 'seller1234!', '10.1.10.1');
        // a browser's keys (a P-256 point and an auth secret): the server encrypts to them before it connects
        const ecdh = createECDH('prime256v1');
        ecdh.generateKeys();
        const keys = {
          p256dh: ecdh.getPublicKey().toString('base64url'),
          auth: randomBytes(16).toString('base64url'),
        };
        const forms = [
          `http://localhost:${port}/short-name`,
          `http://localhost.:${port}/trailing-dot`,
          `http://2130706433:${port}/decimal`,
          `http://0x7f.1:${port}/hex`,
          `http://[::1]:${port}/v6-loopback`,
          `http://[::ffff:127.0.0.1]:${port}/v4-mapped`,
        ];
        const subscribed: string[] = [];
        for (const endpoint of forms) {
          const r = await c.call('POST', '/api/v1/push/subscriptions', {
            token: seller.accessToken,
            body: { endpoint, keys },
          });
          subscribed.push(String(r.status));
        }
        // A fresh buyer orders from the demo seller: the seller's ORDER_REQUESTED goes out by push.
        const buyer = await c.newMember('10.1.10.2');
        await c.call('POST', '/api/v1/wallets/create', {
          token: buyer.accessToken,
          body: { coinCode: 'BTC' },
        });
        const wallets = (await c.call('GET', '/api/v1/wallets', { token: buyer.accessToken })).body
          ?.returnData as Array<{ id: number; coinCode: string }> | undefined;
        const btc = wallets?.find((w) => w.coinCode === 'BTC');
        await c.call('POST', '/sms/request', { token: buyer.accessToken, body: { phone: buyer.phone } });
        await c.call('POST', '/sms/verify', {
          token: buyer.accessToken,
          body: { phone: buyer.phone, code: await c.smsCode(buyer.phone) },
        });
        const list = (await c.call('GET', '/api/v1/sell-listings?coin=BTC&size=50')).body?.returnData as {
          list: Array<{ listingId: number; sellerNickname: string; unitPriceKrw: number; minQty: string }>;
        };
        const listing = list.list.find((l) => l.sellerNickname === 'demoseller');
        if (!listing || !btc) return { defended: false, seen: 'no demo listing or wallet to test with' };
        const krw = minPurchaseKrw(listing.minQty, listing.unitPriceKrw) + 10_000;
        const order = await c.call('POST', '/buy-orders', {
          token: buyer.accessToken,
          body: {
            listingId: listing.listingId,
            krwAmount: krw,
            requestQty: receiveQty(krw, listing.unitPriceKrw),
            destType: 'INTERNAL',
            destWalletId: btc.id,
          },
        });
        const orderId = (order.body?.returnData as { orderId?: number } | undefined)?.orderId;
        // The notification commits with the order and goes out at once; a server that dials its own network
        // does so within moments. Wait for the seller to see it, then a few seconds more.
        for (let i = 0; i < 50; i++) {
          const n = await c.call('GET', '/api/v1/notifications', { token: seller.accessToken });
          const items = (n.body?.returnData as { list?: Array<{ kind: string; orderId: number | null }> })
            ?.list;
          if (items?.some((x) => x.kind === 'ORDER_REQUESTED' && x.orderId === orderId)) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        await new Promise((r) => setTimeout(r, 3000));
        if (orderId) await c.call('POST', `/buy-orders/${orderId}/reject`, { token: seller.accessToken });
        return {
          defended: order.status === 200 && hits.length === 0,
          seen: `subscriptions ${subscribed.join('/')}; order ${said(order)}; the internal service received ${hits.length} request(s)${hits.length ? ` (${hits.join(', ')})` : ''}`,
        };
      } finally {
        await new Promise((r) => internal.close(r));
      }
    },
  };
}

const PRODUCTION_XPUBS = {
  XPUB_BTC: bip84.accountZpub,
  XPUB_ETH: bip84.accountZpub,
  XPUB_XRP: bip84.accountZpub,
  XPUB_TRX: bip84.accountZpub,
};

/** Attacks on how production starts: each runs its own server process. */
function productionAttacks(dataDir: string): Attack[] {
  const production = {
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    SIGNER_TOKEN: randomBytes(32).toString('hex'),
    SMS_PROVIDER: 'console',
    ...PRODUCTION_XPUBS,
    KYC_PROVIDER: 'http',
    KYC_PROVIDER_URL: 'https://kyc.invalid/',
    KYC_PROVIDER_KEY: 'k'.repeat(32),
    KYC_DOC_KEY: 'ab'.repeat(32),
  };
  return [
    {
      finding: 'production accepted SEED_DEMO=1 (demo passwords, unbacked demo deposits)',
      attack: 'start with NODE_ENV=production SEED_DEMO=1',
      run: async () => {
        const r = await startServer({ ...production, SEED_DEMO: '1' }).then(
          async (srv) => {
            await srv.stop();
            return 'it started';
          },
          (err: unknown) => `refused: ${err instanceof Error ? err.message : String(err)}`,
        );
        return { defended: r.startsWith('refused'), seen: r };
      },
    },
    {
      finding: '/docs (the whole API map) was served in production',
      attack: 'GET /docs and /docs/json of a production server',
      run: async () => {
        const srv = await startServer(production);
        try {
          const c = new Client(srv.base);
          const [ui, json] = [await c.call('GET', '/docs'), await c.call('GET', '/docs/json')];
          return {
            defended: ui.status === 404 && json.status === 404,
            seen: `/docs ${ui.status}, /docs/json ${json.status}`,
          };
        } finally {
          await srv.stop();
        }
      },
    },
  ];
}

/** Runs server.ts with `env` and waits for /healthz; returns the base URL and a stop function. */
async function startServer(
  env: Record<string, string>,
): Promise<{ base: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const clean: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(clean)) {
    if (
      /^(NODE_ENV|DATABASE_URL|REDIS_URL|SEED_DEMO|JWT_SECRET|OPERATOR_|SMS_|LOGIN_|LOOKUP_|DOCS_)/.test(k)
    ) {
      delete clean[k];
    }
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: ROOT,
    env: {
      ...clean,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      TRUST_PROXY_HOPS: '1',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`server exited with ${child.exitCode}: ${stderr.trim().split('\n').at(-1) ?? ''}`);
    }
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error('server did not answer /healthz within 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    base,
    stop: () =>
      new Promise<void>((r) => {
        child.once('exit', () => r());
        child.kill('SIGTERM');
      }),
  };
}

/** The attack server's environment: development mode with generous SMS budgets and §19's checks off. */
function auditEnv(dataDir: string, jwtSecret: string): Record<string, string> {
  return {
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    SEED_DEMO: '1',
    JWT_SECRET: jwtSecret,
    OPERATOR_LOGIN_ID: 'auditops',
    OPERATOR_PASSWORD: `audit-${randomBytes(5).toString('hex')}`,
    PRICE_PROVIDER: 'static',
    SMS_RESEND_COOLDOWN_SEC: '0',
    SMS_PER_PHONE_PER_HOUR: '1000',
    SMS_PER_IP_PER_HOUR: '1000',
    // The attacks are on sessions, codes and limits: DECISIONS §19's identity level, 1원 check, holds and
    // Travel Rule would answer first and hide what each attack probes (their own tests run them).
    KYC_TRADE_LEVEL: '0',
    BANK_VERIFY_REQUIRED: '0',
    WITHDRAW_HOLD_SEC: '0',
    WITHDRAW_HOLD_NEW_SEC: '0',
  };
}

/** With DATABASE_URL set, a fresh database for the attack server (its URL) and how to drop it afterwards. */
async function auditDatabase(): Promise<{ url: string; admin: { url: string; name: string } } | undefined> {
  if (!process.env.DATABASE_URL) return undefined;
  const name = `audit_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), admin: { url: process.env.DATABASE_URL, name } };
}

async function main(): Promise<void> {
  const markdown = process.argv.includes('--markdown');
  const jwtSecret = randomBytes(32).toString('hex');
  const dataDir = mkdtempSync(join(tmpdir(), 'p2p-audit-'));
  const env = auditEnv(dataDir, jwtSecret);
  const db = await auditDatabase();
  const dbAdmin = db?.admin;
  if (db) env.DATABASE_URL = db.url;
  const server = await startServer(env);
  const c = new Client(server.base);
  const rows: Array<{ finding: string; attack: string; outcome: Outcome }> = [];
  try {
    const all = [
      ...attacks(c, { jwtSecret, ...(dbAdmin ? { dbAdmin } : {}) }),
      pushAddressAttack(c),
      ...productionAttacks(join(dataDir, 'production')),
    ];
    for (const a of all) {
      const outcome = await a.run().catch((err: unknown) => ({
        defended: false,
        seen: `the attack itself failed: ${err instanceof Error ? err.message : String(err)}`,
      }));
      rows.push({ finding: a.finding, attack: a.attack, outcome });
      if (!markdown) {
        process.stdout.write(
          `${outcome.defended ? 'DEFENDED' : 'HARMED  '}  ${a.finding}\n          ${outcome.seen}\n`,
        );
      }
    }
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    if (dbAdmin) {
      const admin = new pg.Client({ connectionString: dbAdmin.url });
      await admin.connect();
      await admin.query(`drop database if exists ${dbAdmin.name} with (force)`);
      await admin.end();
    }
  }
  if (markdown) {
    process.stdout.write('| finding | attack | answer | result |\n|---|---|---|---|\n');
    for (const r of rows) {
      const cell = (s: string) => s.replaceAll('|', '\\|');
      process.stdout.write(
        `| ${cell(r.finding)} | ${cell(r.attack)} | ${cell(r.outcome.seen)} | ${r.outcome.defended ? 'defended' : '**harmed**'} |\n`,
      );
    }
  }
  const harmed = rows.filter((r) => !r.outcome.defended).length;
  process.stdout.write(`\n${rows.length - harmed} of ${rows.length} attacks defended\n`);
  process.exitCode = harmed === 0 ? 0 : 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`audit failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(2);
});
