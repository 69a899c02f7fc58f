import type { AccountInfoRequest, FeeRequest, LedgerRequest, SubmitRequest, TxRequest } from 'xrpl';
import { z } from 'zod';
import { callNode, nodeTarget } from './node-call.ts';
import { ChainNodeError } from './reader.ts';

const uint32 = z.number().int().min(0).max(0xffffffff);
const drops = z.string().regex(/^\d{1,18}$/, 'not drops');
const hash = z.string().regex(/^[0-9A-Fa-f]{64}$/, 'not a 256-bit hex hash');
const rpcError = z.looseObject({
  status: z.literal('error'),
  error: z.string(),
  error_message: z.string().optional(),
  searched_all: z.boolean().optional(),
});
const ok = <T extends z.ZodRawShape>(shape: T) => z.looseObject({ status: z.literal('success'), ...shape });
const answerOf = <S extends z.ZodType>(result: S) => z.object({ result: z.union([result, rpcError]) });

const accountInfo = answerOf(
  ok({
    account_data: z.looseObject({ Balance: drops, Sequence: uint32 }),
    ledger_current_index: uint32.optional(),
    ledger_index: uint32.optional(),
  }),
);
const fee = answerOf(
  ok({
    drops: z.looseObject({ base_fee: drops, open_ledger_fee: drops }),
    ledger_current_index: uint32,
  }),
);
const ledgerIndex = answerOf(ok({ ledger_index: uint32, validated: z.boolean().optional() }));
const submit = answerOf(
  ok({
    engine_result: z.string().regex(/^[a-z]{3}[A-Z_]+$/),
    engine_result_message: z.string().optional(),
    tx_json: z.looseObject({ hash: hash.optional() }).optional(),
  }),
);
const txAnswer = answerOf(
  ok({
    hash,
    validated: z.boolean().optional(),
    ledger_index: uint32.optional(),
    tx_json: z.looseObject({
      TransactionType: z.string(),
      Amount: z.unknown().optional(),
      DeliverMax: z.unknown().optional(),
      Fee: drops,
      Sequence: uint32,
    }),
    meta: z
      .looseObject({
        TransactionResult: z.string(),
        delivered_amount: z.unknown().optional(),
      })
      .optional(),
  }),
);

/** What `submit` answered: rippled's preliminary engine result (xrpl.org "Transaction Results"). */
export interface XrpSubmitResult {
  engineResult: string;
  message: string;
}

/** A transaction as `tx` reports it; `found: false` with whether the node searched the whole range asked. */
export type XrpTxLookup =
  | { found: false; searchedAll: boolean }
  | {
      found: true;
      validated: boolean;
      ledgerIndex: number | null;
      /** meta.TransactionResult; null while the transaction has no metadata (not in a closed ledger). */
      result: string | null;
      /** meta.delivered_amount in drops; null when absent or not XRP. */
      deliveredDrops: bigint | null;
      /** Amount in drops; null when not XRP. */
      amountDrops: bigint | null;
      feeDrops: bigint;
      sequence: number;
    };

/**
 * The write side of rippled's JSON-RPC for the XRP payer (DECISIONS §17, §18), each answer checked against the
 * documented shape (xrpl.org; the request types are xrpl's): `account_info` (Balance and Sequence of an
 * account, null for actNotFound), `fee` (base and open-ledger fee in drops, the current ledger index),
 * `ledger` of the validated ledger (its index), `submit` of a signed blob (the engine result, whatever it is:
 * the caller decides), and `tx` by hash with api_version 2 (`tx_json`, `meta`, `validated`; txnNotFound with
 * `searched_all` over min_ledger..max_ledger). Throws ChainNodeError for a node that is down, slow or
 * answers something else.
 */
export function xrpWriter(url: string, opts: { timeoutMs?: number } = {}) {
  const ep = nodeTarget('XRP', url, opts.timeoutMs);
  const fail = (message: string) => new ChainNodeError('XRP', message);

  const rpc: Rpc = async (request, schema, what) => {
    const { command, ...params } = request as { command: string } & Record<string, unknown>;
    return callNode(ep, '/', { method: command, params: [params] }, schema, what);
  };

  return {
    /** Balance (drops) and next Sequence of `account` in `ledger`; null when the account does not exist. */
    async accountInfo(
      account: string,
      ledger: 'current' | 'validated' = 'current',
    ): Promise<{ balanceDrops: bigint; sequence: number } | null> {
      const req: AccountInfoRequest = { command: 'account_info', account, ledger_index: ledger };
      const { result: r } = await rpc(req, accountInfo, `account ${account}`);
      if (r.status === 'error') {
        if (r.error === 'actNotFound') return null;
        throw fail(`account_info ${account}: ${r.error}`);
      }
      return { balanceDrops: BigInt(r.account_data.Balance), sequence: r.account_data.Sequence };
    },
    /** The fee of a transaction now: base and open-ledger fee (drops) and the current (open) ledger index. */
    async fee(): Promise<{ baseDrops: bigint; openLedgerDrops: bigint; currentLedger: number }> {
      const req: FeeRequest = { command: 'fee' };
      const { result: r } = await rpc(req, fee, 'fee');
      if (r.status === 'error') throw fail(`fee: ${r.error}`);
      return {
        baseDrops: BigInt(r.drops.base_fee),
        openLedgerDrops: BigInt(r.drops.open_ledger_fee),
        currentLedger: r.ledger_current_index,
      };
    },
    /** The index of the newest validated ledger. */
    async validatedIndex(): Promise<number> {
      const req: LedgerRequest = { command: 'ledger', ledger_index: 'validated' };
      const { result: r } = await rpc(req, ledgerIndex, 'validated ledger');
      if (r.status === 'error') throw fail(`validated ledger: ${r.error}`);
      if (r.validated !== true) throw fail('the validated ledger is not validated');
      return r.ledger_index;
    },
    /** Submits signed blob `txBlob` (hex) as it is. */
    async submit(txBlob: string): Promise<XrpSubmitResult> {
      const req: SubmitRequest = { command: 'submit', tx_blob: txBlob };
      const { result: r } = await rpc(req, submit, 'submit');
      if (r.status === 'error') throw fail(`submit: ${r.error} ${r.error_message ?? ''}`.trim());
      return { engineResult: r.engine_result, message: (r.engine_result_message ?? '').slice(0, 200) };
    },
    /** Looks transaction `txid` up; `range` asks the node whether it searched those ledgers entirely. */
    tx: (txid: string, range?: { min: number; max: number }): Promise<XrpTxLookup> =>
      lookupTx(rpc, txid, range),
  };
}

export type XrpWriter = ReturnType<typeof xrpWriter>;

type Rpc = <S extends z.ZodType>(
  request: { command: string },
  schema: S,
  what: string,
) => Promise<z.output<S>>;

async function lookupTx(rpc: Rpc, txid: string, range?: { min: number; max: number }): Promise<XrpTxLookup> {
  const req: TxRequest = {
    command: 'tx',
    transaction: txid,
    binary: false,
    api_version: 2,
    ...(range ? { min_ledger: range.min, max_ledger: range.max } : {}),
  };
  const { result: r } = await rpc(req, txAnswer, `tx ${txid}`);
  if (r.status === 'error') {
    if (r.error === 'txnNotFound') return { found: false, searchedAll: r.searched_all === true };
    throw new ChainNodeError('XRP', `tx ${txid}: ${r.error}`);
  }
  if (r.hash.toUpperCase() !== txid.toUpperCase())
    throw new ChainNodeError('XRP', `tx ${txid} answered ${r.hash}`);
  const asDrops = (v: unknown) => (typeof v === 'string' && /^\d{1,18}$/.test(v) ? BigInt(v) : null);
  return {
    found: true,
    validated: r.validated === true,
    ledgerIndex: r.ledger_index ?? null,
    result: r.meta?.TransactionResult ?? null,
    deliveredDrops: asDrops(r.meta?.delivered_amount),
    // API v2 prints a Payment's Amount as DeliverMax.
    amountDrops: asDrops(r.tx_json.DeliverMax ?? r.tx_json.Amount),
    feeDrops: BigInt(r.tx_json.Fee),
    sequence: r.tx_json.Sequence,
  };
}
