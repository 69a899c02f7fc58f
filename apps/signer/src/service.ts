import { createHash } from 'node:crypto';
import {
  CHAIN_DECIMALS,
  decimalToUnits,
  type SignerCoin,
  type SignerErrorCode,
  type SignMessageRequest,
  type SignMessageResponse,
  type SignRequest,
  type SignResponse,
  unitsToDecimal,
} from '@p2p/signer-protocol';
import { IntentError, type SignedTx, signIntent } from './chains/index.ts';
import type { SignerConfig } from './config.ts';
import type { Journal } from './journal.ts';
import { addressAt, hotAddress, type SignerKeys } from './keys.ts';
import { signMessage } from './messages.ts';

const DAY_MS = 24 * 3600 * 1000;

/** A refusal with its protocol code (SIGNER-PROTOCOL "Calls"). */
export class SignerError extends Error {
  constructor(
    readonly code: SignerErrorCode,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** JSON with object keys sorted at every level: the same intent always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** sha256 hex of the coin, purpose and intent of a request. */
export function intentHash(req: SignRequest): string {
  return createHash('sha256')
    .update(canonical({ coin: req.coin, purpose: req.purpose, intent: req.intent }))
    .digest('hex');
}

/**
 * The signing rules of DECISIONS §18: one answer per requestId (from the journal), the amount read from the
 * signed transaction, sweeps only to the signer's own or cold addresses, withdrawals within the per-transaction
 * and 24 h limits. Calls are served one at a time, so two calls cannot both pass a limit or both sign one id.
 */
export class SignerService {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly own: Record<SignerCoin, Set<string>>;

  constructor(
    private readonly keys: SignerKeys,
    private readonly journal: Journal,
    private readonly config: SignerConfig,
    private readonly now: () => number = Date.now,
  ) {
    this.own = {
      BTC: new Set(),
      ETH: new Set([hotAddress(keys, 'ETH') ?? '']),
      XRP: new Set([hotAddress(keys, 'XRP') ?? '', addressAt(keys, 'XRP', '0/0')]),
      TRX: new Set([hotAddress(keys, 'TRX') ?? '']),
    };
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** POST /v1/sign. Throws SignerError. */
  sign(req: SignRequest): Promise<SignResponse> {
    return this.serial(() => this.signNow(req));
  }

  /** POST /v1/sign-message: journaled, no limits. */
  signMessage(req: SignMessageRequest): Promise<SignMessageResponse> {
    return this.serial(async () => {
      const answer = await signMessage(this.keys, req);
      const messageHash = createHash('sha256').update(req.message).digest('hex');
      this.journal.append({
        kind: 'message',
        ...req,
        address: answer.address,
        messageHash,
        time: this.now(),
      });
      return answer;
    });
  }

  private async signNow(req: SignRequest): Promise<SignResponse> {
    const hash = intentHash(req);
    const prior = this.journal.find(req.requestId);
    if (prior) {
      if (prior.intentHash !== hash) {
        throw new SignerError('SIGNER_REQUEST_REUSED', 'this requestId was signed with another intent');
      }
      const { requestId, coin, txid, signedTx, amount, fee } = prior;
      return { requestId, coin, txid, signedTx, amount, fee };
    }
    let signed: SignedTx;
    try {
      signed = await signIntent(this.keys, req);
    } catch (err) {
      if (err instanceof IntentError) throw new SignerError('SIGNER_INTENT_INVALID', err.message);
      throw err;
    }
    const paid = this.checkPurpose(req, signed);
    const counted = paid + signed.feeUnits;
    if (req.purpose === 'WITHDRAWAL') this.checkLimits(req.coin, counted);
    const decimals = CHAIN_DECIMALS[req.coin];
    const answer: SignResponse = {
      requestId: req.requestId,
      coin: req.coin,
      txid: signed.txid,
      signedTx: signed.signedTx,
      amount: unitsToDecimal(paid, decimals),
      fee: unitsToDecimal(signed.feeUnits, decimals),
    };
    const entry = { kind: 'tx' as const, ...answer, purpose: req.purpose, intentHash: hash };
    this.journal.append({ ...entry, countedUnits: counted.toString(), time: this.now() });
    return answer;
  }

  /**
   * Base units paid to addresses that are not the signer's own. A SWEEP pays only its own addresses, a
   * COLD_SWEEP only them and COLD_ADDRESS_<COIN>; anything else is refused.
   */
  private checkPurpose(req: SignRequest, signed: SignedTx): bigint {
    const cold = this.config.coldAddresses[req.coin];
    let paid = 0n;
    for (const out of signed.outputs) {
      const own = out.own === true || (out.address !== null && this.own[req.coin].has(out.address));
      if (own) continue;
      paid += out.units;
      if (req.purpose === 'SWEEP')
        throw new SignerError('SIGNER_INTENT_INVALID', 'a SWEEP pays only own addresses');
      if (req.purpose === 'COLD_SWEEP' && (!cold || out.address !== cold)) {
        throw new SignerError(
          'SIGNER_INTENT_INVALID',
          'a COLD_SWEEP pays only COLD_ADDRESS and own addresses',
        );
      }
    }
    return paid;
  }

  /** SIGNER_LIMIT_TX above SIGNER_MAX_TX_<COIN>; SIGNER_LIMIT_DAY when the last 24 h would pass SIGNER_MAX_DAY. */
  private checkLimits(coin: SignerCoin, counted: bigint): void {
    const decimals = CHAIN_DECIMALS[coin];
    const { tx, day } = this.config.limits[coin];
    if (counted > decimalToUnits(tx, decimals)) {
      throw new SignerError('SIGNER_LIMIT_TX', `above the signer's limit per transaction (${tx} ${coin})`, {
        limit: tx,
      });
    }
    const used = this.journal.withdrawnSince(coin, this.now() - DAY_MS);
    if (used + counted > decimalToUnits(day, decimals)) {
      throw new SignerError('SIGNER_LIMIT_DAY', `above the signer's limit per 24 h (${day} ${coin})`, {
        limit: day,
        used: unitsToDecimal(used, decimals),
      });
    }
  }
}
