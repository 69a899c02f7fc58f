import type { HDKey } from '@scure/bip32';
import { address as bitcoinAddress, Psbt, Transaction } from 'bitcoinjs-lib';
import { z } from 'zod';
import { addressOf } from '../../chains/btc-reader.ts';
import { BtcRpcRefusal, type BtcWriter, RPC } from '../../chains/btc-writer.ts';
import { addressFromPublicKey, type ChainNetwork, isValidAddress } from '../../chains/index.ts';
import { ChainNodeError } from '../../chains/reader.ts';
import { chainUnitsToLedger } from '../../chains/units.ts';
import type { Db, Tx } from '../../db/client.ts';
import { bitcoinjsNetwork, type Selection, selectCoins, selectReplacement } from './btc-select.ts';
import type { BroadcastOutcome, ChainPayer, PaymentState, PayRequest, PreparedPayment } from './payer.ts';
import {
  addChangeOutput,
  changeAddresses,
  lockFreeOutputs,
  lockOutputs,
  nextInternalIndex,
  type OutPoint,
  outputsValue,
  type PlatformOutput,
  recordChangeAddress,
  recordSent,
  reserveOutputs,
  sentTx,
  setSentBlock,
  settleSpend,
} from './repo-utxos.ts';

/** BIP-125: an input sequence below 0xfffffffe signals that the transaction may be replaced. */
export const RBF_SEQUENCE = 0xfffffffd;
/** estimatesmartfee's target: confirmation within this many blocks. */
const FEE_TARGET_BLOCKS = 6;

/** The platform's confirmed outputs do not cover a withdrawal and its fee (the hot wallet is short). */
export class NotEnoughOnChain extends Error {
  constructor(readonly coin: string) {
    super(`${coin}: the platform's spendable outputs do not cover the amount and the fee`);
  }
}

export interface BtcPayerOptions {
  db: Db;
  node: BtcWriter;
  network: ChainNetwork;
  /** The watch-only account key of XPUB_BTC (deposit addresses 0/i, change 1/n). */
  account: HDKey;
  /** Its BIP-32 path from the signer's master key ("m/84'/0'/0'"), for the PSBT's bip32Derivation. */
  accountPath: string;
  /**
   * The 4-byte fingerprint of the signer's master key (the PSBT's bip32Derivation names it), or how to get it:
   * asked once, at the first withdrawal, of the signer's GET /v1/accounts (again after a failure).
   */
  masterFingerprint: Uint8Array | (() => Promise<Uint8Array>);
  /** CHAIN_FEE_RATE_BTC, sat/vB: used when the node has no estimate or an implausible one. */
  fallbackFeeRate: number;
  /** The highest fee rate taken from the node, sat/vB (default 1000). */
  maxFeeRate?: number;
  /** Confirmations for CONFIRMED (CHAIN_CONFIRMATIONS_BTC). */
  confirmations: number;
  /** The node's dust relay fee in sat/vB (default 3, Bitcoin Core's; Litecoin Core's is higher). */
  dustRelayFeeRate?: number;
}

const reservationSchema = z.object({
  inputs: z
    .array(z.object({ txid: z.string().regex(/^[0-9a-f]{64}$/), vout: z.number().int().min(0) }))
    .min(1),
  feeRate: z.number().positive(),
});

/**
 * Pays BTC withdrawals from the platform's outputs (DECISIONS §18): library coin selection over the confirmed
 * deposit and change outputs, the fee rate of `estimatesmartfee` (checked: positive, at most maxFeeRate) else
 * CHAIN_FEE_RATE_BTC, change to a fresh internal-chain address 1/n, and a PSBT whose inputs carry witnessUtxo
 * and bip32Derivation (and the change output its bip32Derivation) for the signer. Every input signals BIP-125;
 * a replacement (`req.replaces`) spends all of the replaced attempt's inputs at a higher fee rate, so at most
 * one of the two can ever confirm. Amounts are satoshi (ledger units of BTC are satoshi too).
 */
export class BtcPayer implements ChainPayer {
  readonly coin = 'BTC' as const;

  private fingerprint: Promise<Uint8Array> | null = null;

  constructor(private readonly o: BtcPayerOptions) {}

  /** The signer's master fingerprint: given, or asked once (a failed answer is asked again next time). */
  private masterFingerprint(): Promise<Uint8Array> {
    const given = this.o.masterFingerprint;
    if (given instanceof Uint8Array) return Promise.resolve(given);
    if (!this.fingerprint) {
      this.fingerprint = given().catch((err: unknown) => {
        this.fingerprint = null;
        throw err;
      });
    }
    return this.fingerprint;
  }

  /** The fee rate in sat/vB: the node's estimate when it has a plausible one, else the configured rate. */
  async feeRate(): Promise<number> {
    const max = this.o.maxFeeRate ?? 1000;
    const estimate = await this.o.node.estimateFeeRate(FEE_TARGET_BLOCKS);
    return estimate !== null && estimate >= 1 && estimate <= max ? estimate : this.o.fallbackFeeRate;
  }

  async prepare(tx: Tx, req: PayRequest): Promise<PreparedPayment> {
    if (!isValidAddress('BTC', req.address, this.o.network))
      throw new Error('not a BTC address of this network');
    const fingerprint = await this.masterFingerprint();
    const change = await this.changeKey(tx);
    let feeRate = await this.feeRate();
    let sel: Selection | undefined;
    let inputs: PlatformOutput[];
    if (req.replaces) {
      const prev = reservationSchema.parse(req.replaces.reservation);
      // BIP-125 asks more fee and a higher rate than the replaced one: half as much again, at least +10 sat/vB
      // (Bitcoin Core's incremental relay fee is 1 sat/vB; Litecoin's is higher).
      feeRate = Math.max(feeRate, Math.ceil(prev.feeRate * 1.5), Math.ceil(prev.feeRate) + 10);
      const forced = await this.lockReplaced(tx, prev.inputs, req.replaces.requestId);
      const extra = await lockFreeOutputs(tx, 'BTC');
      sel = selectReplacement({
        ...this.params(req, change.address, feeRate),
        forced: coins(forced),
        extra: coins(extra),
      });
      inputs = [...forced, ...extra];
    } else {
      inputs = await lockFreeOutputs(tx, 'BTC');
      sel = selectCoins({ ...this.params(req, change.address, feeRate), coins: coins(inputs) });
    }
    if (!sel) throw new NotEnoughOnChain('BTC');
    const used = sel.inputs.map(
      (c) => inputs.find((o) => o.txid === c.txid && o.vout === c.vout) as PlatformOutput,
    );
    await reserveOutputs(tx, 'BTC', used, req.requestId);
    if (sel.change > 0n) await recordChangeAddress(tx, 'BTC', change.address, change.path, req.requestId);
    const psbt = this.psbt(fingerprint, req, used, sel.change > 0n ? { ...change, sats: sel.change } : null);
    return {
      intent: { psbt: psbt.toBase64() },
      reservation: {
        inputs: used.map((o) => ({ txid: o.txid, vout: o.vout })),
        feeRate,
        fee: sel.fee.toString(),
        change:
          sel.change > 0n
            ? { address: change.address, path: change.path, sats: sel.change.toString() }
            : null,
      },
    };
  }

  private params(req: PayRequest, changeAddress: string, feeRate: number) {
    return {
      to: req.address,
      amount: req.units,
      changeAddress,
      feeRate,
      network: this.o.network,
      dustRelayFeeRate: this.o.dustRelayFeeRate,
    };
  }

  /** The replaced attempt's outputs, locked; throws when one is gone or another attempt holds it. */
  private async lockReplaced(
    tx: Tx,
    refs: readonly OutPoint[],
    replacedId: string,
  ): Promise<PlatformOutput[]> {
    const rows = await lockOutputs(tx, 'BTC', refs);
    const bad =
      rows.length !== refs.length ||
      rows.some((r) => r.spentBy !== null || (r.reservedBy !== null && r.reservedBy !== replacedId));
    if (bad) throw new Error(`the inputs of ${replacedId} are spent or held by another attempt`);
    return rows;
  }

  /** A fresh change key 1/n. */
  private async changeKey(tx: Tx): Promise<{ address: string; path: string; publicKey: Uint8Array }> {
    const n = await nextInternalIndex(tx, 'BTC');
    const publicKey = this.o.account.deriveChild(1).deriveChild(n).publicKey;
    if (!publicKey) throw new Error('derived key has no public key');
    return { address: addressFromPublicKey('BTC', publicKey, this.o.network), path: `1/${n}`, publicKey };
  }

  private derivation(masterFingerprint: Uint8Array, path: string, publicKey: Uint8Array) {
    return [
      {
        masterFingerprint,
        pubkey: publicKey,
        path: `${this.o.accountPath}/${path}`,
      },
    ];
  }

  private psbt(
    fingerprint: Uint8Array,
    req: PayRequest,
    inputs: readonly PlatformOutput[],
    change: { address: string; path: string; publicKey: Uint8Array; sats: bigint } | null,
  ): Psbt {
    const network = bitcoinjsNetwork(this.o.network);
    const psbt = new Psbt({ network });
    for (const o of inputs) {
      const [c, i] = o.path.split('/').map(Number) as [number, number];
      const key = this.o.account.deriveChild(c).deriveChild(i);
      if (!key.publicKey) throw new Error('derived key has no public key');
      psbt.addInput({
        hash: o.txid,
        index: o.vout,
        sequence: RBF_SEQUENCE,
        witnessUtxo: { script: outputScript(o.address, network), value: o.units },
        bip32Derivation: this.derivation(fingerprint, o.path, key.publicKey),
      });
    }
    psbt.addOutput({ address: req.address, value: req.units });
    if (change) {
      psbt.addOutput({
        address: change.address,
        value: change.sats,
        bip32Derivation: this.derivation(fingerprint, change.path, change.publicKey),
      });
    }
    return psbt;
  }

  async broadcast(signedTx: string, txid: string): Promise<BroadcastOutcome> {
    const parsed = this.decode(signedTx, txid);
    if ('reason' in parsed) return { kind: 'REJECTED', reason: parsed.reason };
    const first = await this.recordOwn(parsed, signedTx);
    // Bitcoin Core answers a transaction already in its mempool like a new one: a repeat asks where it is first.
    if (!first && (await this.o.node.place(txid, parsed.outs.length, null)).where !== 'nowhere') {
      return { kind: 'KNOWN' };
    }
    try {
      const sent = await this.o.node.send(signedTx);
      if (sent !== txid) throw new ChainNodeError('BTC', `sendrawtransaction answered ${sent} for ${txid}`);
      return { kind: 'ACCEPTED' };
    } catch (err) {
      if (!(err instanceof BtcRpcRefusal)) throw err;
      if (err.code === RPC.VERIFY_ALREADY_IN_CHAIN) return { kind: 'KNOWN' };
      if (![RPC.VERIFY_ERROR, RPC.VERIFY_REJECTED, RPC.DESERIALIZATION_ERROR].includes(err.code as -25)) {
        throw new ChainNodeError('BTC', err.message, { cause: err });
      }
      // "Missing inputs" is also the answer for a transaction of ours that confirmed and whose outputs are spent.
      const place = await this.o.node.place(txid, parsed.outs.length, null);
      return place.where === 'nowhere' ? { kind: 'REJECTED', reason: err.message } : { kind: 'KNOWN' };
    }
  }

  private decode(signedTx: string, txid: string): Transaction | { reason: string } {
    try {
      const t = Transaction.fromHex(signedTx);
      return t.getId() === txid ? t : { reason: `the signed transaction is ${t.getId()}, not ${txid}` };
    } catch (err) {
      return { reason: `not a transaction: ${(err as Error).message}` };
    }
  }

  /** Before the bytes leave: the transaction and its change outputs are on record (a crash keeps them). */
  private async recordOwn(t: Transaction, signedTx: string): Promise<boolean> {
    const txid = t.getId();
    const first = await recordSent(this.o.db, 'BTC', { txid, requestId: null, signedTx });
    const addresses = t.outs.map((out) => addressOf(out.script, this.o.network));
    const own = await changeAddresses(
      this.o.db,
      'BTC',
      addresses.filter((a): a is string => a !== null),
    );
    for (const [vout, out] of t.outs.entries()) {
      const address = addresses[vout];
      const path = address ? own.get(address) : undefined;
      if (address && path)
        await addChangeOutput(this.o.db, { coin: 'BTC', txid, vout, units: out.value, address, path });
    }
    return first;
  }

  async state(txid: string): Promise<PaymentState> {
    const sent = await sentTx(this.o.db, 'BTC', txid);
    const t = sent ? Transaction.fromHex(sent.signedTx) : null;
    const place = await this.o.node.place(txid, t?.outs.length ?? 0, sent?.blockHash ?? null);
    const seenIn = place.where === 'block' ? place.blockHash : null;
    if (sent && sent.blockHash !== seenIn) await setSentBlock(this.o.db, 'BTC', txid, seenIn);
    if (place.where === 'nowhere') return { kind: 'MISSING' };
    if (place.where === 'mempool') return { kind: 'PENDING', confirmations: 0 };
    if (place.confirmations < this.o.confirmations || !t) {
      return { kind: 'PENDING', confirmations: place.confirmations };
    }
    const spent = t.ins.map((i) => ({ txid: Buffer.from(i.hash).reverse().toString('hex'), vout: i.index }));
    await settleSpend(this.o.db, 'BTC', txid, spent);
    const inValue = await outputsValue(this.o.db, 'BTC', spent);
    const outValue = t.outs.reduce((s, o) => s + o.value, 0n);
    const fee = inValue === null ? 0n : inValue - outValue;
    return {
      kind: 'CONFIRMED',
      confirmations: place.confirmations,
      feeUnits: chainUnitsToLedger('BTC', fee),
    };
  }
}

function coins(outputs: readonly PlatformOutput[]) {
  return outputs.map((o) => ({ txid: o.txid, vout: o.vout, sats: o.units, address: o.address }));
}

function outputScript(address: string, network: ReturnType<typeof bitcoinjsNetwork>): Uint8Array {
  return bitcoinAddress.toOutputScript(address, network);
}
