import { decode, hashes, isValidClassicAddress } from 'xrpl';
import { z } from 'zod';
import { ChainNodeError } from '../../chains/reader.ts';
import { chainUnitsToLedger, ledgerToChainUnits } from '../../chains/units.ts';
import type { XrpWriter } from '../../chains/xrp-writer.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { BroadcastOutcome, ChainPayer, PaymentState, PayRequest, PreparedPayment } from './payer.ts';
import { takeNonce } from './repo.ts';
import { recordSent } from './repo-utxos.ts';
import { xrpAttemptTxid, xrpSignedBlob } from './repo-xrp.ts';

/** The platform account's path under the XRP account key (DECISIONS §17: the receiving account is 0/0). */
export const XRP_ACCOUNT_PATH = '0/0';
/** LastLedgerSequence = the open ledger + 20 (xrpl.js autofill's window: about a minute and a half). */
export const XRP_LEDGER_WINDOW = 20;
/** The most a payment's fee may be (drops): above it the withdrawal waits for the network to calm down. */
export const XRP_FEE_MAX_DROPS = 10_000n;

const reservationSchema = z.looseObject({
  sequence: z.number().int().min(0),
  lastLedgerSequence: z.number().int().min(0),
});
const blobSchema = z.looseObject({
  TransactionType: z.literal('Payment'),
  Account: z.string(),
  Amount: z.string().regex(/^\d+$/),
  Sequence: z.number().int(),
  LastLedgerSequence: z.number().int(),
});

/** The platform account does not hold enough XRP for this payment yet. */
export class XrpAccountShort extends Error {
  constructor(need: bigint, have: bigint) {
    super(`XRP account short: needs ${need} drops, holds ${have} drops`);
    this.name = 'XrpAccountShort';
  }
}

export interface XrpPayerOptions {
  db: Db;
  node: XrpWriter;
  /** The classic address of 0/0 of XPUB_XRP: the account the signer signs for. */
  account: string;
  /** XRP_DEPOSIT_ACCOUNT as installed (DECISIONS §17); paying needs it to be `account`. */
  depositAccount: string;
}

/**
 * Pays XRP withdrawals from the platform account (0/0, DECISIONS §17, §18) with the withdrawal's `destTag` as
 * DestinationTag. The Sequence is taken in the database under the account's row lock (chain_nonces, as the ETH
 * nonces) from the node's `account_info`; the fee is the larger of the node's base and open-ledger fee, at most
 * XRP_FEE_MAX_DROPS; LastLedgerSequence is the open ledger + XRP_LEDGER_WINDOW. Amounts: ledger units (10^-8)
 * in, drops (10^-6) on chain; more than 6 decimals is a RangeError.
 *
 * A transaction counts only once `tx` reports it in a validated ledger: tesSUCCESS with `delivered_amount` equal
 * to the Amount completes (a partial delivery never does), any other validated result FAILS with it. Not found
 * while LastLedgerSequence is ahead of the validated ledger: the stored blob is submitted again (a restart, a
 * node that lost it); not found in the whole range once the validated ledger is past it: FAILED, it can never
 * be included. A replacement keeps the replaced attempt's Sequence while the account has not used it (of two
 * transactions with one Sequence at most one validates); a new Sequence only once the old one was consumed by
 * a validated transaction that is not the replaced payment succeeding (then the replaced one can never apply).
 */
export class XrpPayer implements ChainPayer {
  readonly coin = 'XRP' as const;

  constructor(private readonly o: XrpPayerOptions) {}

  get account(): string {
    return this.o.account;
  }

  async prepare(tx: Tx, req: PayRequest): Promise<PreparedPayment> {
    const { account, node } = this.o;
    if (account !== this.o.depositAccount) {
      throw new Error('XRP_DEPOSIT_ACCOUNT is not the signer account 0/0: XRP is paid by hand');
    }
    if (!isValidClassicAddress(req.address) || req.address === account) {
      throw new Error('not an XRP classic address of another account');
    }
    const drops = ledgerToChainUnits('XRP', req.units);
    if (drops <= 0n || chainUnitsToLedger('XRP', drops) !== req.units) {
      throw new RangeError('an XRP amount has at most 6 decimals');
    }
    const fee = await node.fee();
    // The open-ledger fee gets it into the next ledger; never below the base fee.
    let feeDrops = fee.baseDrops;
    if (fee.openLedgerDrops > feeDrops) feeDrops = fee.openLedgerDrops;
    if (feeDrops > XRP_FEE_MAX_DROPS) {
      throw new Error(`XRP fee ${feeDrops} drops is above ${XRP_FEE_MAX_DROPS}: waits`);
    }
    const info = await node.accountInfo(account, 'current');
    if (!info) throw new XrpAccountShort(drops + feeDrops, 0n);
    if (info.balanceDrops < drops + feeDrops) throw new XrpAccountShort(drops + feeDrops, info.balanceDrops);
    const sequence = req.replaces
      ? await this.replacementSequence(tx, req)
      : await takeNonce(tx, 'XRP', account, info.sequence);
    const lastLedgerSequence = fee.currentLedger + XRP_LEDGER_WINDOW;
    return {
      intent: {
        fromPath: XRP_ACCOUNT_PATH,
        destination: req.address,
        ...(req.destTag === null ? {} : { destinationTag: req.destTag }),
        amountDrops: drops.toString(),
        sequence,
        feeDrops: feeDrops.toString(),
        lastLedgerSequence,
      },
      // from/nonce: the pipeline gives an unused Sequence back when the signer refuses (as an ETH nonce).
      reservation: {
        fromPath: XRP_ACCOUNT_PATH,
        from: account,
        nonce: sequence,
        sequence,
        lastLedgerSequence,
      },
    };
  }

  /** The Sequence of a replacement (see the class): the replaced one's while unused, else a new one. */
  private async replacementSequence(tx: Tx, req: PayRequest): Promise<number> {
    const prev = reservationSchema.parse(req.replaces?.reservation ?? {});
    const validated = await this.o.node.accountInfo(this.o.account, 'validated');
    if (!validated || validated.sequence <= prev.sequence) return prev.sequence;
    const txid = await xrpAttemptTxid(tx, req.replaces?.requestId ?? '');
    if (txid) {
      const old = await this.o.node.tx(txid, searchRange(prev.lastLedgerSequence));
      if (old.found && !old.validated) throw new Error(`${txid} is not validated yet: waits`);
      if (old.found && old.result === 'tesSUCCESS') {
        throw new Error(`the replaced attempt ${txid} was paid: an operator must look at it`);
      }
      if (!old.found && !old.searchedAll) {
        throw new ChainNodeError('XRP', `the node cannot tell whether ${txid} validated (history missing)`);
      }
    }
    return takeNonce(tx, 'XRP', this.o.account, validated.sequence);
  }

  async broadcast(signedTx: string, txid: string): Promise<BroadcastOutcome> {
    let hash: string;
    try {
      blobSchema.parse(decode(signedTx));
      hash = hashes.hashSignedTx(signedTx);
    } catch (err) {
      return {
        kind: 'REJECTED',
        reason: `not a signed XRP Payment: ${(err as Error).message.slice(0, 120)}`,
      };
    }
    if (hash !== txid.toUpperCase()) return { kind: 'REJECTED', reason: `the blob is ${hash}, not ${txid}` };
    await recordSent(this.o.db, 'XRP', { txid: hash, requestId: null, signedTx });
    return this.submit(signedTx, hash);
  }

  /**
   * Submits a blob and reads rippled's preliminary result: tes/ter/tec are in the node's hands (the validated
   * ledger decides); tefPAST_SEQ / tefALREADY and any refusal of a transaction the node already holds are KNOWN;
   * other tef and tem are REJECTED; tel (a local condition) throws, to be sent again later.
   */
  private async submit(blob: string, txid: string): Promise<BroadcastOutcome> {
    const r = await this.o.node.submit(blob);
    const code = r.engineResult;
    if (/^(tes|ter|tec)/.test(code)) return { kind: 'ACCEPTED' };
    if (code === 'tefPAST_SEQ' || code === 'tefALREADY') return { kind: 'KNOWN' };
    if (code.startsWith('tel')) throw new ChainNodeError('XRP', `submit: ${code} ${r.message}`);
    if ((await this.o.node.tx(txid)).found) return { kind: 'KNOWN' };
    return { kind: 'REJECTED', reason: `${code}: ${r.message}`.slice(0, 300) };
  }

  async state(txid: string): Promise<PaymentState> {
    const blob = await xrpSignedBlob(this.o.db, txid);
    if (!blob) return { kind: 'MISSING' };
    const sent = blobSchema.parse(decode(blob));
    const found = await this.o.node.tx(txid, searchRange(sent.LastLedgerSequence));
    if (found.found) {
      if (!found.validated) return { kind: 'PENDING', confirmations: 0 };
      // In a validated ledger the fee was burnt whatever the result.
      const feeUnits = chainUnitsToLedger('XRP', found.feeDrops);
      if (found.result !== 'tesSUCCESS') {
        return { kind: 'FAILED', reason: `validated with ${found.result ?? 'no result'}`, feeUnits };
      }
      if (found.deliveredDrops === null || found.deliveredDrops !== BigInt(sent.Amount)) {
        const got = found.deliveredDrops ?? 'unknown';
        return {
          kind: 'FAILED',
          reason: `delivered ${got} of ${sent.Amount} drops: never a completion`,
          feeUnits,
        };
      }
      return { kind: 'CONFIRMED', confirmations: 1, feeUnits };
    }
    const validated = await this.o.node.validatedIndex();
    if (validated <= sent.LastLedgerSequence) {
      // Still includable: the node may have lost it (a restart of either side). The same bytes again.
      const out = await this.submit(blob, txid);
      if (out.kind === 'REJECTED') return { kind: 'FAILED', reason: `the node refused it: ${out.reason}` };
      return { kind: 'PENDING', confirmations: 0 };
    }
    if (!found.searchedAll) {
      throw new ChainNodeError('XRP', `the node cannot tell whether ${txid} validated (history missing)`);
    }
    return {
      kind: 'FAILED',
      reason: `not in a validated ledger up to its LastLedgerSequence ${sent.LastLedgerSequence}`,
    };
  }
}

/**
 * The ledgers a payment can be in: it was prepared while the open ledger was LastLedgerSequence - the window, so
 * no earlier ledger can hold it, and none after LastLedgerSequence.
 */
function searchRange(lastLedger: number): { min: number; max: number } {
  return { min: Math.max(1, lastLedger - XRP_LEDGER_WINDOW), max: lastLedger };
}
