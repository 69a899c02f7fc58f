import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SignerCoin, SignPurpose, SignResponse } from '@p2p/signer-protocol';

/** One line of the journal: a transaction signed, or a message signed (DECISIONS §18, SIGNER-PROTOCOL "Journal"). */
export type JournalEntry =
  | ({
      kind: 'tx';
      purpose: SignPurpose;
      /** sha256 hex of the canonical intent: a repeat with another intent is refused. */
      intentHash: string;
      /** Base units (satoshi, wei, drop, sun) counted against the limits, as decimal digits. */
      countedUnits: string;
      time: number;
    } & SignResponse)
  | {
      kind: 'message';
      coin: SignerCoin;
      path: string;
      address: string;
      messageHash: string;
      time: number;
    };

/**
 * The append-only journal: every signature is a line written and fsynced before the answer leaves. Read once at
 * start; never rewritten. A torn last line (a crash mid-write) is skipped on reading, and the next line starts on
 * a fresh line.
 */
export class Journal {
  private fd: number;
  readonly entries: JournalEntry[] = [];
  private readonly byRequest = new Map<string, JournalEntry & { kind: 'tx' }>();

  constructor(readonly file: string) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        this.remember(JSON.parse(line) as JournalEntry);
      } catch {
        // A line cut short by a crash: its answer never left (we fsync before answering).
      }
    }
    this.fd = openSync(file, 'a', 0o600);
    if (text.length > 0 && !text.endsWith('\n')) writeSync(this.fd, '\n');
  }

  private remember(entry: JournalEntry): void {
    this.entries.push(entry);
    if (entry.kind === 'tx') this.byRequest.set(entry.requestId, entry);
  }

  /** The transaction signed earlier for `requestId`, if any. */
  find(requestId: string): (JournalEntry & { kind: 'tx' }) | undefined {
    return this.byRequest.get(requestId);
  }

  /** Base units of WITHDRAWAL signatures of `coin` since `sinceMs`. */
  withdrawnSince(coin: SignerCoin, sinceMs: number): bigint {
    let sum = 0n;
    for (const e of this.entries) {
      if (e.kind === 'tx' && e.coin === coin && e.purpose === 'WITHDRAWAL' && e.time >= sinceMs) {
        sum += BigInt(e.countedUnits);
      }
    }
    return sum;
  }

  /** Appends one entry and fsyncs it before returning. */
  append(entry: JournalEntry): void {
    writeSync(this.fd, `${JSON.stringify(entry)}\n`);
    fsyncSync(this.fd);
    this.remember(entry);
  }

  close(): void {
    closeSync(this.fd);
  }
}
