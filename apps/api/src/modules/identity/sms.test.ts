import { Writable } from 'node:stream';
import pino from 'pino';
import twilio from 'twilio';
import type RequestClient from 'twilio/lib/base/RequestClient.js';
import Response from 'twilio/lib/http/response.js';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/helpers.ts';
import { loadConfig } from '../../config.ts';
import { AppError } from '../../errors/index.ts';
import { createIdentityLimits } from './limits.ts';
import { ConsoleSmsProvider, createDevOutbox } from './sms/console.ts';
import { createSms } from './sms/provider.ts';
import { requestCode } from './sms/service.ts';
import { TwilioSmsProvider } from './sms/twilio.ts';
import { RELAXED_LIMITS, randomPhone, requestAndReadCode } from './test-kit.ts';

const TWILIO = {
  TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`,
  TWILIO_AUTH_TOKEN: 'test-token',
  TWILIO_FROM: '+15005550006',
};
const silent = pino({ level: 'silent' });

describe('SMS providers', () => {
  it('the console provider keeps the code in the outbox and logs only the masked phone', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const outbox = createDevOutbox(null);
    const provider = new ConsoleSmsProvider(outbox, pino({ level: 'info' }, sink));
    await provider.send({ to: '+821012345678', code: '482913', ttlSec: 120 });
    expect(await outbox.newest('+821012345678')).toEqual({ code: '482913', sentAt: expect.any(String) });
    expect(await outbox.newest('+821099999999')).toBeNull();
    const log = lines.join('');
    expect(log).toContain('sms sent to +82 *******5678');
    expect(log).not.toContain('482913');
    expect(log).not.toContain('12345678');
  });

  it('the Twilio provider posts the text through the SDK', async () => {
    const seen: { method?: string; uri?: string; data?: unknown }[] = [];
    class FakeHttp extends twilio.RequestClient {
      override async request<T>(opts: RequestClient.RequestOptions<T>): Promise<Response<T>> {
        seen.push({ method: opts.method, uri: opts.uri, data: opts.data });
        return new Response(201, { sid: `SM${'1'.repeat(32)}`, status: 'queued' } as T, {});
      }
    }
    const provider = new TwilioSmsProvider({
      accountSid: TWILIO.TWILIO_ACCOUNT_SID,
      authToken: TWILIO.TWILIO_AUTH_TOKEN,
      from: TWILIO.TWILIO_FROM,
      httpClient: new FakeHttp(),
    });
    await provider.send({ to: '+821012345678', code: '123456', ttlSec: 120 });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.method).toBe('post');
    expect(seen[0]?.uri).toContain(`/Accounts/${TWILIO.TWILIO_ACCOUNT_SID}/Messages.json`);
    expect(seen[0]?.data).toMatchObject({
      To: '+821012345678',
      From: TWILIO.TWILIO_FROM,
      Body: expect.stringContaining('123456'),
    });
  });

  it('Twilio without credentials refuses to start, with a clear message', async () => {
    // Production defaults to Twilio.
    expect(() => createSms(loadConfig({ NODE_ENV: 'production' }), null, silent)).toThrow(
      /TWILIO_ACCOUNT_SID/,
    );
    await expect(createTestApp({ SMS_PROVIDER: 'twilio' })).rejects.toThrow(
      /SMS_PROVIDER=twilio needs TWILIO_ACCOUNT_SID/,
    );
  });

  it('no dev outbox with Twilio, nor in production', async () => {
    const withTwilio = createSms(loadConfig({ SMS_PROVIDER: 'twilio', ...TWILIO }), null, silent);
    expect(withTwilio.provider.kind).toBe('twilio');
    expect(withTwilio.outbox).toBeNull();
    const prod = createSms(loadConfig({ NODE_ENV: 'production', SMS_PROVIDER: 'console' }), null, silent);
    expect(prod.provider.kind).toBe('console');
    expect(prod.outbox).toBeNull();

    const tw = await createTestApp({ SMS_PROVIDER: 'twilio', ...TWILIO });
    try {
      const res = await tw.call('GET', '/dev/sms/outbox?phone=%2B821012345678');
      expect(res.status).toBe(404);
      expect(res.body.returnMessage).toBe('NOT_FOUND');
    } finally {
      await tw.close();
    }
  });

  it('a failed send is 503 SERVICE_UNAVAILABLE and leaves the code sent before it valid', async () => {
    const t = await createTestApp(RELAXED_LIMITS);
    try {
      const phone = randomPhone();
      const first = await requestAndReadCode(t, phone);
      const failing = {
        kind: 'twilio' as const,
        send: async () => {
          throw new Error('carrier down');
        },
        sendText: async () => {
          throw new Error('carrier down');
        },
      };
      const ctx = {
        deps: t.app.deps,
        limits: createIdentityLimits(t.config, null),
        sms: { provider: failing, outbox: null },
      };
      const err = await requestCode(ctx, { phone }, null, '127.0.0.1', silent).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('SERVICE_UNAVAILABLE');
      expect((await t.call('POST', '/sms/verify', { body: { phone, code: first } })).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
