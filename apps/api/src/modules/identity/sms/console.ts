import { maskPhone } from '@p2p/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { SmsMessage, SmsProvider } from './provider.ts';

/** The newest code sent to a phone, as GET /dev/sms/outbox shows it (DECISIONS §10). */
export interface OutboxEntry {
  code: string;
  sentAt: string;
}

export interface DevOutbox {
  put(phoneE164: string, entry: OutboxEntry): Promise<void>;
  newest(phoneE164: string): Promise<OutboxEntry | null>;
}

const OUTBOX_TTL_SEC = 3600;
const outboxes = new WeakMap<object, DevOutbox>();

/**
 * The one dev outbox of an app (keyed by its Config): the SMS console provider and the identity provider's
 * console (DECISIONS §19: its code shows in /dev/sms/outbox for the member's phone) write to the same one.
 */
export function devOutboxFor(config: object, redis: Redis | null): DevOutbox {
  let box = outboxes.get(config);
  if (!box) {
    box = createDevOutbox(redis);
    outboxes.set(config, box);
  }
  return box;
}

/** A dev outbox in Redis (shared by API instances, entries expire after an hour) or in process memory. */
export function createDevOutbox(redis: Redis | null): DevOutbox {
  if (redis) {
    const key = (phone: string) => `p2p:dev-sms-outbox:${phone}`;
    return {
      async put(phone, entry) {
        await redis.set(key(phone), JSON.stringify(entry), 'EX', OUTBOX_TTL_SEC);
      },
      async newest(phone) {
        const raw = await redis.get(key(phone));
        return raw ? (JSON.parse(raw) as OutboxEntry) : null;
      },
    };
  }
  const entries = new Map<string, OutboxEntry>();
  return {
    async put(phone, entry) {
      entries.delete(phone);
      entries.set(phone, entry);
      // Bounded: drop the oldest phones first.
      if (entries.size > 10_000) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
    },
    async newest(phone) {
      return entries.get(phone) ?? null;
    },
  };
}

/**
 * Development provider: nothing leaves the machine. The code goes to the dev outbox only; the log gets
 * the masked destination and never the code (logs never contain codes).
 */
export class ConsoleSmsProvider implements SmsProvider {
  readonly kind = 'console' as const;
  constructor(
    private readonly outbox: DevOutbox,
    private readonly log: FastifyBaseLogger,
  ) {}

  async send(m: SmsMessage): Promise<void> {
    await this.outbox.put(m.to, { code: m.code, sentAt: new Date().toISOString() });
    this.log.info(
      { to: maskPhone(m.to) },
      `sms sent to ${maskPhone(m.to)} (console provider, see the dev outbox)`,
    );
  }

  /** Alerts carry no secret: the text goes to the log with the masked destination. */
  async sendText(to: string, text: string): Promise<void> {
    this.log.info({ to: maskPhone(to), smsAlert: text }, `sms alert to ${maskPhone(to)} (console provider)`);
  }
}
