import twilio from 'twilio';
import type { SmsMessage, SmsProvider } from './provider.ts';

/** The body of the verification text. */
export function smsText(m: SmsMessage): string {
  return `[P2P] Verification code ${m.code} (valid ${m.ttlSec} s)`;
}

/** Sends verification codes through Twilio's Messages API (config.sms.twilio). */
export class TwilioSmsProvider implements SmsProvider {
  readonly kind = 'twilio' as const;
  private readonly client: twilio.Twilio;
  private readonly from: string;

  /** `httpClient` replaces Twilio's HTTP client (tests; never the internet there). */
  constructor(opts: {
    accountSid: string;
    authToken: string;
    from: string;
    httpClient?: twilio.RequestClient;
  }) {
    this.client = twilio(
      opts.accountSid,
      opts.authToken,
      opts.httpClient ? { httpClient: opts.httpClient } : {},
    );
    this.from = opts.from;
  }

  async send(m: SmsMessage): Promise<void> {
    await this.client.messages.create({ to: m.to, from: this.from, body: smsText(m) });
  }

  async sendText(to: string, text: string): Promise<void> {
    await this.client.messages.create({ to, from: this.from, body: text });
  }
}
