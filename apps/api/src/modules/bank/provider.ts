import { BANK_CODE_LENGTH } from '@p2p/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/** The 1 KRW deposit the bank provider makes: to this account, with this depositor name. */
export interface OneWonTransfer {
  bankName: string;
  accountNo: string;
  /** The text the member sees as the depositor in their bank app; it carries the 4-digit code. */
  depositorName: string;
  /** The member's verified name: the console provider's stand-in for a bank's records (see below). */
  requesterName: string;
}

/** The bank's answer: the account holder's name as the bank has it ("예금주 조회"). */
export interface OneWonReceipt {
  holderName: string;
}

/**
 * A bank-verification provider (DECISIONS §19 `BANK_VERIFY_PROVIDER`): sends 1 KRW to an account and reports
 * its holder's name. Real ones (a firm-banking or open-banking API) sit behind the same interface.
 * Throws when the bank refuses the transfer.
 */
export interface BankVerifyProvider {
  readonly kind: 'console';
  sendOneWon(t: OneWonTransfer): Promise<OneWonReceipt>;
}

/** What GET /dev/bank/outbox shows of the newest 1 KRW sent to an account. */
export interface BankOutboxEntry {
  depositorName: string;
  code: string;
  sentAt: string;
}

/** The console provider's memory: Redis when given (every API instance sees it), else this process. */
interface DevStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
}

const TTL_SEC = 3600;

function devStore(redis: Redis | null): DevStore {
  if (redis) {
    return {
      get: (key) => redis.get(`p2p:dev-bank:${key}`),
      set: async (key, value) => {
        await redis.set(`p2p:dev-bank:${key}`, value, 'EX', TTL_SEC);
      },
    };
  }
  const m = new Map<string, string>();
  return {
    get: async (key) => m.get(key) ?? null,
    set: async (key, value) => {
      m.delete(key);
      m.set(key, value);
      if (m.size > 10_000) {
        const oldest = m.keys().next().value;
        if (oldest !== undefined) m.delete(oldest);
      }
    },
  };
}

/**
 * Development provider: no money moves. The deposit goes to the dev outbox (GET /dev/bank/outbox); the holder
 * name is the one set for the account number in the dev directory (PUT /dev/bank/holder, so tests can stand
 * for an account in someone else's name), else the requester's own verified name. Never in production.
 */
export class ConsoleBankProvider implements BankVerifyProvider {
  readonly kind = 'console' as const;
  private readonly store: DevStore;
  constructor(
    redis: Redis | null,
    private readonly log: FastifyBaseLogger,
  ) {
    this.store = devStore(redis);
  }

  async sendOneWon(t: OneWonTransfer): Promise<OneWonReceipt> {
    const code = t.depositorName.slice(-BANK_CODE_LENGTH);
    const entry: BankOutboxEntry = { depositorName: t.depositorName, code, sentAt: new Date().toISOString() };
    await this.store.set(`outbox:${t.accountNo}`, JSON.stringify(entry));
    this.log.info({ bank: t.bankName }, '1 KRW sent (console bank provider, see /dev/bank/outbox)');
    return { holderName: (await this.store.get(`holder:${t.accountNo}`)) ?? t.requesterName };
  }

  /** The newest 1 KRW sent to `accountNo`, or null. */
  async newest(accountNo: string): Promise<BankOutboxEntry | null> {
    const raw = await this.store.get(`outbox:${accountNo}`);
    return raw ? (JSON.parse(raw) as BankOutboxEntry) : null;
  }

  /** Sets the holder name the console bank reports for `accountNo` (development and tests). */
  async setHolder(accountNo: string, holderName: string): Promise<void> {
    await this.store.set(`holder:${accountNo}`, holderName);
  }
}
