import { hashes, isValidClassicAddress, type LedgerRequest, PaymentFlags } from 'xrpl';
import { z } from 'zod';
import { callNode, nodeTarget } from './node-call.ts';
import {
  type ChainBlock,
  ChainNodeError,
  type ChainPayment,
  type ChainReader,
  type ReaderOptions,
} from './reader.ts';

const HASH = /^[0-9A-F]{64}$/;
const hash = z.string().regex(HASH, 'not a 256-bit hex hash');
const uint32 = z.number().int().min(0).max(0xffffffff);
/** A ledger index as API v1 spells it in the header (a decimal string) or as a number. */
const ledgerIndex = z
  .union([
    uint32,
    z
      .string()
      .regex(/^\d{1,10}$/)
      .transform(Number),
  ])
  .pipe(uint32);
/** XRP in drops: a decimal integer string, at most the 100 billion XRP that exist. */
const drops = z
  .string()
  .regex(/^\d{1,18}$/)
  .refine((s) => BigInt(s) <= 100_000_000_000_000_000n, 'more drops than exist');
/** An issued-currency or MPT amount: not XRP, so never a deposit of this coin. */
const tokenAmount = z.looseObject({ value: z.string() });
const amount = z.union([drops, tokenAmount]);

const meta = z.looseObject({
  TransactionResult: z.string().regex(/^[a-z]{3}[A-Z_]+$/),
  delivered_amount: z.union([amount, z.literal('unavailable')]).optional(),
  DeliveredAmount: amount.optional(),
});

/**
 * An expanded transaction of API v1: the transaction's fields, its `hash` and `metaData`. Loose, because
 * every field (known to us or not) goes into the hashes that are checked.
 */
const tx = z.looseObject({
  TransactionType: z.string().min(1),
  Account: z.string(),
  hash,
  metaData: meta,
  Destination: z.string().optional(),
  DestinationTag: uint32.optional(),
  Amount: amount.optional(),
  Flags: uint32.optional(),
});
type Tx = z.infer<typeof tx>;

const header = z.looseObject({
  ledger_hash: hash,
  ledger_index: ledgerIndex,
  parent_hash: hash,
  transaction_hash: hash,
  account_hash: hash,
  total_coins: z.string().regex(/^\d{1,20}$/),
  close_time: uint32,
  parent_close_time: uint32,
  close_time_resolution: z.number().int().min(0).max(255),
  close_flags: z.number().int().min(0).max(255),
  closed: z.literal(true),
  transactions: z.array(tx).optional(),
});

const rpcError = z.looseObject({
  status: z.literal('error'),
  error: z.string(),
  error_message: z.string().optional(),
});
const ledgerResult = z.looseObject({
  status: z.literal('success'),
  ledger: header,
  ledger_hash: hash,
  ledger_index: uint32,
  validated: z.boolean().optional(),
});
const ledgerAnswer = z.object({ result: z.union([ledgerResult, rpcError]) });
type LedgerResult = z.infer<typeof ledgerResult>;

/**
 * The XRP Ledger reader of DECISIONS §17 over rippled or Clio JSON-RPC (`CHAIN_RPC_XRP`), on validated
 * ledgers only (XRP_CONFIRMATIONS 1 = one validated ledger). It reports `Payment`s to `depositAccount` that
 * succeeded (`tesSUCCESS`) and delivered XRP, with the metadata's `delivered_amount` in drops (a partial
 * payment credits what arrived, never `Amount`) and the `DestinationTag` (null when absent); issued-currency
 * and MPT payments are not reported. Requests pin `api_version: 1` (expanded transactions carry `metaData`).
 *
 * A node's ledger is believed only after its hashes check out with xrpl's codec: each transaction's hash, the
 * transaction tree against the header's `transaction_hash`, and the header against `ledger_hash`; so the
 * payments reported are exactly those the ledger hash commits to. `delivered_amount`, which rippled adds and
 * no hash covers, must agree with the hashed `DeliveredAmount`, or with `Amount` when the payment is not
 * partial. Every call has the options' timeout. Throws ChainNodeError for an unreachable, slow or erroring
 * node, a malformed or unvalidated ledger, or any hash or amount that does not check out; Error at once for
 * a `depositAccount` that is not a classic address.
 */
export function xrpReader(opts: ReaderOptions & { depositAccount: string }): ChainReader {
  if (!isValidClassicAddress(opts.depositAccount)) {
    throw new Error(`XRP deposit account is not a classic address: ${opts.depositAccount}`);
  }
  const ep = nodeTarget('XRP', opts.url, opts.timeoutMs);
  const fail = (message: string, cause?: unknown) => new ChainNodeError('XRP', message, { cause });

  async function ledger(index: number | 'validated', withTransactions: boolean, what: string) {
    const params: LedgerRequest = {
      command: 'ledger',
      ledger_index: index,
      transactions: withTransactions,
      expand: withTransactions,
      api_version: 1,
    };
    const { command, ...rest } = params;
    const answer = await callNode(ep, '/', { method: command, params: [rest] }, ledgerAnswer, what);
    return answer.result;
  }

  async function validatedLedger(height: number, withTransactions: boolean): Promise<LedgerResult | null> {
    checkHeight(height);
    const r = await ledger(height, withTransactions, `ledger ${height}`);
    if (r.status === 'error') {
      if (r.error !== 'lgrNotFound')
        throw fail(`ledger ${height}: ${r.error} ${r.error_message ?? ''}`.trim());
      // Not found below the validated tip means the node lacks that history (a gap), not that it is to come.
      const tip = await tipHeight();
      if (height > tip) return null;
      throw fail(`ledger ${height} is missing from the node's history (validated tip ${tip})`);
    }
    if (r.validated !== true) return null;
    if (r.ledger_index !== height || r.ledger.ledger_index !== height) {
      throw fail(`asked for ledger ${height}, got ${r.ledger_index}`);
    }
    if (r.ledger.ledger_hash !== r.ledger_hash) throw fail(`ledger ${height}: two different hashes`);
    checkHeaderHash(r);
    return r;
  }

  function checkHeaderHash(r: LedgerResult): void {
    let computed: string;
    try {
      computed = hashes.hashLedgerHeader(
        r.ledger as unknown as Parameters<typeof hashes.hashLedgerHeader>[0],
      );
    } catch (err) {
      throw fail(`ledger ${r.ledger_index}: header cannot be hashed`, err);
    }
    if (computed !== r.ledger_hash)
      throw fail(`ledger ${r.ledger_index}: header does not hash to ledger_hash`);
  }

  async function tipHeight(): Promise<number> {
    const r = await ledger('validated', false, 'validated ledger');
    if (r.status === 'error') throw fail(`validated ledger: ${r.error} ${r.error_message ?? ''}`.trim());
    if (r.validated !== true) throw fail('the node has no validated ledger');
    return r.ledger_index;
  }

  return {
    coin: 'XRP',
    tipHeight,
    async blockHash(height) {
      const r = await validatedLedger(height, false);
      return r ? r.ledger_hash : null;
    },
    async block(height): Promise<ChainBlock> {
      const r = await validatedLedger(height, true);
      if (!r) throw fail(`ledger ${height} is not validated yet`);
      const txs = r.ledger.transactions;
      if (!txs) throw fail(`ledger ${height}: no transactions in the answer`);
      checkTransactions(height, r, txs);
      const payments: ChainPayment[] = [];
      for (const t of txs) {
        const p = depositOf(t, opts.depositAccount, height);
        if (p) payments.push(p);
      }
      return { height, hash: r.ledger_hash, parentHash: r.ledger.parent_hash, payments };
    },
  };

  /** Each transaction's hash and the transaction tree against the (already checked) header. */
  function checkTransactions(height: number, r: LedgerResult, txs: Tx[]): void {
    try {
      const hashed = txs.map((t) => {
        // DeliverMax is the JSON alias rippled 2.x prints beside Amount; the binary form has Amount only.
        const { DeliverMax, ...fields } = t;
        if (DeliverMax !== undefined && flatJson(DeliverMax) !== flatJson(t.Amount)) {
          throw fail(`ledger ${height}: transaction ${t.hash} has DeliverMax unlike Amount`);
        }
        if (hashes.hashSignedTx(fields as unknown as Parameters<typeof hashes.hashSignedTx>[0]) !== t.hash) {
          throw fail(`ledger ${height}: transaction ${t.hash} does not hash to its id`);
        }
        return fields;
      });
      const tree = hashes.hashTxTree(hashed as unknown as Parameters<typeof hashes.hashTxTree>[0]);
      if (tree !== r.ledger.transaction_hash) {
        throw fail(`ledger ${height}: transactions do not hash to transaction_hash`);
      }
    } catch (err) {
      if (err instanceof ChainNodeError) throw err;
      // Also a field this version of xrpl's codec does not know (a newer amendment): upgrade xrpl.
      throw fail(`ledger ${height}: transactions cannot be hashed (${(err as Error).message})`, err);
    }
  }

  function depositOf(t: Tx, account: string, height: number): ChainPayment | null {
    if (t.TransactionType !== 'Payment' || t.Destination !== account || t.Account === account) return null;
    if (t.metaData.TransactionResult !== 'tesSUCCESS') return null;
    const delivered = t.metaData.delivered_amount;
    if (delivered === undefined || delivered === 'unavailable') {
      throw fail(`ledger ${height}: payment ${t.hash} has no delivered_amount`);
    }
    // What the hashed fields say arrived: DeliveredAmount when recorded, else Amount unless partial.
    const partial = ((t.Flags ?? 0) & PaymentFlags.tfPartialPayment) !== 0;
    const hashed = t.metaData.DeliveredAmount ?? (partial ? undefined : t.Amount);
    if (typeof hashed === 'string' || typeof delivered === 'string') {
      const agrees =
        hashed === undefined
          ? typeof t.Amount === 'string' &&
            typeof delivered === 'string' &&
            BigInt(delivered) <= BigInt(t.Amount)
          : hashed === delivered;
      if (!agrees) throw fail(`ledger ${height}: delivered_amount of ${t.hash} contradicts the transaction`);
    }
    // Tokens (issued currencies, MPTs) are not this coin.
    if (typeof delivered !== 'string') return null;
    return {
      txid: t.hash,
      outputIndex: 0,
      to: t.Destination,
      destinationTag: t.DestinationTag ?? null,
      amount: BigInt(delivered),
    };
  }
}

/** A JSON value with the keys of a flat object sorted, so that two spellings of one amount compare equal. */
function flatJson(v: unknown): string {
  return v !== null && typeof v === 'object'
    ? JSON.stringify(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
    : JSON.stringify(v);
}

function checkHeight(height: number): void {
  if (!Number.isSafeInteger(height) || height < 1 || height > 0xffffffff) {
    throw new RangeError(`XRP ledger index out of range: ${height}`);
  }
}
