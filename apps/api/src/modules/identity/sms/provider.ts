import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../../../config.ts';
import { ConsoleSmsProvider, type DevOutbox, devOutboxFor } from './console.ts';
import { TwilioSmsProvider } from './twilio.ts';

/** One verification text to send: the E.164 destination, the 6-digit code and how long it lives. */
export interface SmsMessage {
  to: string;
  code: string;
  ttlSec: number;
}

/** Sends verification codes (DECISIONS §6). Implementations never log the code. */
export interface SmsProvider {
  readonly kind: 'console' | 'twilio';
  /** Throws when the text could not be handed to the carrier. */
  send(message: SmsMessage): Promise<void>;
  /** An alert text (DECISIONS §12: order notifications) to an E.164 number; throws when not handed over. */
  sendText(to: string, text: string): Promise<void>;
}

export interface SmsSetup {
  provider: SmsProvider;
  /** The development outbox (DECISIONS §10): only with the console provider outside production. */
  outbox: DevOutbox | null;
}

/**
 * Chooses the provider from config.sms.provider. The console provider keeps the newest code per phone in
 * the dev outbox (Redis when given, so every API instance sees it; else memory). Throws, refusing to
 * start, when Twilio is chosen without its credentials.
 */
export function createSms(config: Config, redis: Redis | null, log: FastifyBaseLogger): SmsSetup {
  if (config.sms.provider === 'twilio') {
    const { accountSid, authToken, from } = config.sms.twilio;
    if (!accountSid || !authToken || !from) {
      throw new Error(
        'SMS_PROVIDER=twilio needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM; ' +
          'set them, or SMS_PROVIDER=console outside production',
      );
    }
    return { provider: new TwilioSmsProvider({ accountSid, authToken, from }), outbox: null };
  }
  const outbox = devOutboxFor(config, redis);
  return { provider: new ConsoleSmsProvider(outbox, log), outbox: config.isProduction ? null : outbox };
}
