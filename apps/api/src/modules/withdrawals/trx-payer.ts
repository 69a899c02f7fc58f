import type { HDKey } from '@scure/bip32';
import { z } from 'zod';
import { addressFromPublicKey, isValidAddress } from '../../chains/index.ts';
import type { TrxWriter } from '../../chains/trx-writer.ts';
import { chainUnitsToLedger, ledgerToChainUnits } from '../../chains/units.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { BroadcastOutcome, ChainPayer, PaymentState, PayRequest, PreparedPayment } from './payer.ts';
import { recordSent } from './repo-utxos.ts';

/** How long a TRX transaction may wait to get in a block (its raw_data.expiration after the reference block). */
const EXPIRATION_MS = 60_000;
/** The hot address: child 1/0 of the TRX account key (DECISIONS §18). */
export const TRX_HOT_PATH = '1/0';

const signedSchema = z.looseObject({
  txID: z.string().regex(/^[0-9a-fA-F]{64}$/),
  raw_data_hex: z.string().regex(/^(?:[0-9a-fA-F]{2})+$/),
  signature: z.array(z.string()).min(1),
});
const reservationSchema = z.object({ fromPath: z.string(), expiration: z.number().int() });

export interface TrxPayerOptions {
  db: Db;
  node: TrxWriter;
  /** The watch-only account key of XPUB_TRX. */
  account: HDKey;
  /** Confirmations for CONFIRMED (CHAIN_CONFIRMATIONS_TRX). */
  confirmations: number;
}

/** The address of child `path` ("c/i") of a TRX account key. */
export function trxAddressAt(account: HDKey, path: string): string {
  const [c, i] = path.split('/').map(Number) as [number, number];
  const key = account.deriveChild(c).deriveChild(i).publicKey;
  if (!key) throw new Error('derived key has no public key');
  return addressFromPublicKey('TRX', key, 'mainnet');
}

/**
 * Pays TRX withdrawals from the hot address 1/0 (DECISIONS §18): a TransferContract intent for the signer
 * referencing the node's head block (TaPoS: ref_block_bytes, ref_block_hash) that expires 60 s after it.
 * TRON has no nonce, so a replacement of a FAILED attempt is prepared only once that attempt has expired on
 * the chain's clock (the head block is past its expiration): from then on it can never get in a block, and
 * the two can never both confirm. Amounts: ledger units (10^-8) in, sun (10^-6) on chain; an amount with
 * more than 6 decimals is refused (RangeError).
 */
export class TrxPayer implements ChainPayer {
  readonly coin = 'TRX' as const;
  readonly hotAddress: string;

  constructor(private readonly o: TrxPayerOptions) {
    this.hotAddress = trxAddressAt(o.account, TRX_HOT_PATH);
  }

  async prepare(_tx: Tx, req: PayRequest): Promise<PreparedPayment> {
    if (!isValidAddress('TRX', req.address, 'mainnet')) throw new Error('not a TRON address');
    const sun = ledgerToChainUnits('TRX', req.units);
    if (sun <= 0n || chainUnitsToLedger('TRX', sun) !== req.units) {
      throw new RangeError('a TRX amount has at most 6 decimals');
    }
    const ref = await this.o.node.refBlock();
    if (req.replaces) {
      const prev = reservationSchema.parse(req.replaces.reservation);
      if (prev.expiration >= ref.timestamp) {
        throw new Error(
          `${req.replaces.requestId} can still be mined until ${new Date(prev.expiration).toISOString()}`,
        );
      }
    }
    const expiration = ref.timestamp + EXPIRATION_MS;
    return {
      intent: {
        fromPath: TRX_HOT_PATH,
        to: req.address,
        amountSun: sun.toString(),
        refBlockBytes: ref.refBlockBytes,
        refBlockHash: ref.refBlockHash,
        expiration,
        timestamp: ref.timestamp,
      },
      reservation: { fromPath: TRX_HOT_PATH, expiration, refBlock: ref.number },
    };
  }

  async broadcast(signedTx: string, txid: string): Promise<BroadcastOutcome> {
    return broadcastTrx(this.o.db, this.o.node, signedTx, txid);
  }

  async state(txid: string): Promise<PaymentState> {
    return trxState(this.o.node, txid, this.o.confirmations);
  }
}

/** Sends a signed TRX transaction (the signer's JSON) after putting it on record; see TrxPayer. */
export async function broadcastTrx(
  db: Db,
  node: TrxWriter,
  signedTx: string,
  txid: string,
): Promise<BroadcastOutcome> {
  let body: z.infer<typeof signedSchema>;
  try {
    body = signedSchema.parse(JSON.parse(signedTx));
  } catch (err) {
    return {
      kind: 'REJECTED',
      reason: `not a signed TRON transaction: ${(err as Error).message.slice(0, 120)}`,
    };
  }
  if (body.txID.toLowerCase() !== txid.toLowerCase()) {
    return { kind: 'REJECTED', reason: `the signed transaction is ${body.txID}, not ${txid}` };
  }
  await recordSent(db, 'TRX', { txid, requestId: null, signedTx });
  const r = await node.broadcast(body);
  return r.kind === 'REJECTED' ? { kind: 'REJECTED', reason: r.reason } : r;
}

/** Where TRX transaction `txid` stands: CONFIRMED at `confirmations` blocks, PENDING, or MISSING. */
export async function trxState(node: TrxWriter, txid: string, confirmations: number): Promise<PaymentState> {
  const i = await node.info(txid);
  if (!i.inBlock) return i.pending ? { kind: 'PENDING', confirmations: 0 } : { kind: 'MISSING' };
  // A transfer that failed in its block paid nothing (only the fee): for the withdrawal it did not happen.
  if (i.failed) return { kind: 'MISSING' };
  const n = Math.max(0, i.head - i.blockNumber + 1);
  if (n < confirmations) return { kind: 'PENDING', confirmations: n };
  return { kind: 'CONFIRMED', confirmations: n, feeUnits: chainUnitsToLedger('TRX', i.feeSun) };
}
