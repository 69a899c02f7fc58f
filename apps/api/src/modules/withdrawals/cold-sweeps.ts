import type { Coin } from '@p2p/contract';
import { chainUnitsToLedger, ledgerToChainUnits } from '../../chains/units.ts';
import type { Db } from '../../db/client.ts';
import { inTx } from '../../db/tx.ts';
import { movements, post } from '../../ledger/index.ts';
import type { ChainPayer } from './payer.ts';
import { holdsPayoutLease, returnNonce } from './repo.ts';
import {
  type ColdSweepRow,
  type CustodyConfig,
  type CustodySource,
  coldSweepsOf,
  endColdSweep,
  hasUnsignedAttempt,
  hasUnsignedColdSweep,
  insertColdSweep,
  lockColdSweep,
  storeColdIntent,
  storeColdSigned,
} from './repo-cold.ts';
import { releaseOutputs } from './repo-utxos.ts';
import { describeError, isSignerRefusal } from './signer.ts';

/**
 * Cold sweeps of the hot wallet's excess (DECISIONS §18, issue 24): above HOT_WALLET_MAX_<COIN> the excess goes
 * to COLD_ADDRESS_<COIN>, one open COLD_SWEEP per coin, requestId `cold:<COIN>:<id>`, prepared by the coin's
 * payer like a withdrawal, signed, stored, sent; its network fee a `network-fee:<COIN>` posting once it confirms.
 *
 * ETH and XRP take a nonce / Sequence of the address withdrawals pay from, so their sweeps keep the withdrawal
 * pipeline's discipline (one sequence space): the nonce is taken in the database under the payout lease and the
 * nonce row's lock, in the transaction that stores the intent; no cold sweep is prepared while a withdrawal
 * attempt is unsigned and no withdrawal is prepared while a cold sweep is unsigned (pipeline.ts), so a sweep the
 * signer refuses always holds the last nonce taken and gives it back: nothing waits behind a gap. An unsigned
 * sweep (a crash, a silent signer) is asked for again with its stored intent (the signer answers a repeat from
 * its journal); the signed transaction and txid are stored before it is sent and a sweep the node does not know
 * is sent again, the same bytes, never re-signed. BTC releases its outputs and TRX has no sequence: there a
 * sweep that could not be signed, or left unsigned five minutes by a crash, simply FAILS.
 */

/** The coins whose cold sweeps take a nonce / Sequence of the hot address (see above). */
export const COLD_NONCE_COINS: ReadonlySet<Coin> = new Set<Coin>(['ETH', 'XRP']);

/** The signer's POST /v1/sign as the sweep needs it (apps/api/src/chains/signer-client.ts `sign`). */
export type SignFn = (req: {
  requestId: string;
  coin: Coin;
  purpose: 'WITHDRAWAL' | 'SWEEP' | 'COLD_SWEEP';
  intent: Record<string, unknown>;
}) => Promise<{ txid: string; signedTx: string }>;

export interface ColdSweepDeps {
  cfg: CustodyConfig;
  payer: ChainPayer;
  source: CustodySource;
  sign: SignFn;
  /** The payout worker's lease holder: a sweep is prepared only while it holds the coin's lease. */
  holder?: string;
}

/** What settling needs beyond the payer: the coin's confirmations, and the signer to resume unsigned sweeps. */
export interface ColdSettleOptions {
  /** CHAIN_CONFIRMATIONS_<COIN>: a sweep is CONFIRMED (its fee posted) at this many. Default 1. */
  confirmations?: number;
  /** ETH/XRP: asks the signer again for sweeps left unsigned. */
  sign?: SignFn;
}

/**
 * Sweeps what the hot wallet of `deps.payer.coin` holds above the cap to the cold address (see the file's
 * comment). Returns the sweep's requestId, or null when nothing is above the cap, no cap or cold address is set,
 * a sweep is open, an unsigned withdrawal attempt waits, or `holder` lost the lease. Throws what the signer or
 * the node threw (after storing what it means: a refusal ends the sweep FAILED, its nonce given back).
 */
export async function sweepExcessToCold(db: Db, deps: ColdSweepDeps): Promise<string | null> {
  const prepared = await prepareColdSweep(db, deps);
  if (!prepared) return null;
  await signColdSweep(db, deps.payer, deps.sign, prepared);
  return prepared.request_id;
}

async function prepareColdSweep(db: Db, deps: ColdSweepDeps): Promise<ColdSweepRow | null> {
  const coin = deps.payer.coin;
  const max = deps.cfg.hotMax[coin];
  const cold = deps.cfg.coldAddress[coin];
  if (max === undefined || !cold) return null;
  const hot = chainUnitsToLedger(coin, await deps.source.hotBalance());
  if (hot <= max) return null;
  // Whole chain units only (a TRX sweep is in sun, XRP in drops): round the excess down to what the chain carries.
  const units = ledgerToChainUnits(coin, hot - max);
  const excess = chainUnitsToLedger(coin, units);
  if (excess <= 0n) return null;
  return inTx(db, async (tx) => {
    if (deps.holder !== undefined && !(await holdsPayoutLease(tx, coin, deps.holder))) return null;
    if (COLD_NONCE_COINS.has(coin) && (await hasUnsignedAttempt(tx, coin))) return null;
    const row = await insertColdSweep(tx, { coin, to: cold, units });
    if (!row) return null;
    const p = await deps.payer.prepare(tx, {
      requestId: row.requestId,
      withdrawalId: 0,
      address: cold,
      destTag: null,
      units: excess,
      replaces: null,
    });
    await storeColdIntent(tx, row.id, p.intent, p.reservation);
    return lockColdSweep(tx, row.id).then((r) => r ?? null);
  });
}

/**
 * Asks the signer for PREPARED sweep `s` with its stored intent, stores the answer (BROADCAST) and sends it.
 * A refusal (or, for BTC/TRX, any failure) ends it FAILED with its nonce / outputs given back; ETH/XRP keep a
 * sweep whose signer did not answer PREPARED, to be asked again. Rethrows the signer's error.
 */
async function signColdSweep(db: Db, payer: ChainPayer, sign: SignFn, s: ColdSweepRow): Promise<void> {
  if (!s.intent) return;
  let signed: { txid: string; signedTx: string };
  try {
    signed = await sign({
      requestId: s.request_id,
      coin: payer.coin,
      purpose: 'COLD_SWEEP',
      intent: s.intent,
    });
  } catch (err) {
    if (!COLD_NONCE_COINS.has(payer.coin) || isSignerRefusal(err)) {
      await failColdSweep(db, payer.coin, s.id, `not signed: ${describeError(err)}`);
    }
    throw err;
  }
  if (!(await storeColdSigned(db, s.id, signed.txid, signed.signedTx))) return;
  await sendColdSweep(db, payer, { ...s, txid: signed.txid, signed_tx: signed.signedTx });
}

/** Sends stored sweep `s`; a node that refuses it for good fails it. A node that is down throws (sent again later). */
async function sendColdSweep(db: Db, payer: ChainPayer, s: ColdSweepRow): Promise<void> {
  if (!s.signed_tx || !s.txid) return;
  const sent = await payer.broadcast(s.signed_tx, s.txid);
  if (sent.kind === 'REJECTED')
    await failColdSweep(db, payer.coin, s.id, `the node refused it: ${sent.reason}`);
}

/**
 * Ends open sweep `id` FAILED with `reason`: BTC outputs go back; an ETH/XRP nonce goes back when it is still the
 * last one taken (the next takes the larger of it and the node's count, so a nonce the chain did use is never
 * reused); `feeUnits` the chain took all the same (an XRP tec) is posted as the sweep's network fee.
 */
async function failColdSweep(db: Db, coin: Coin, id: number, reason: string, feeUnits = 0n): Promise<void> {
  const stranded = await inTx(db, async (tx) => {
    const s = await lockColdSweep(tx, id);
    if (s?.status !== 'PREPARED' && s?.status !== 'BROADCAST') return null;
    await endColdSweep(tx, id, 'FAILED', reason);
    if (feeUnits > 0n)
      await post(tx, movements.coldSweepNetworkFee({ coldSweepId: id, coin, units: feeUnits }));
    if (!COLD_NONCE_COINS.has(coin)) {
      await releaseOutputs(tx, coin, s.request_id);
      return null;
    }
    const r = s.reservation ?? {};
    if (typeof r.from !== 'string' || typeof r.nonce !== 'number') return null;
    // A validated XRP failure burnt its fee and used its Sequence: nothing to give back.
    if (feeUnits > 0n || (await returnNonce(tx, coin, r.from, r.nonce))) return null;
    return r.nonce;
  });
  if (stranded !== null) {
    // Only a sweep sent, then lost after later nonces were taken, gets here (an unsigned one always holds the
    // last nonce: see the file's comment). Said loudly: if the chain never used it, later payments wait for it.
    throw new Error(`cold sweep ${id} FAILED (${reason}); nonce ${stranded} could not be given back`);
  }
}

/**
 * Follows the coin's open cold sweeps: unsigned ones are asked for again (ETH/XRP, with `opts.sign`) or FAIL
 * after five minutes (BTC/TRX); sent ones become CONFIRMED at the confirmations (the fee posted with the status
 * in one transaction), FAILED when the chain says they never will, and ETH/XRP ones the node does not know are
 * sent again. Returns how many changed.
 */
export async function settleColdSweeps(
  db: Db,
  payer: ChainPayer,
  opts: ColdSettleOptions = {},
): Promise<number> {
  const coin = payer.coin;
  const nonce = COLD_NONCE_COINS.has(coin);
  let changed = 0;
  for (const s of await coldSweepsOf(db, coin, 'PREPARED', nonce ? 0 : 300)) {
    if (!nonce) await failColdSweep(db, coin, s.id, 'left unsigned by a crash');
    else if (opts.sign) await signColdSweep(db, payer, opts.sign, s);
    changed++;
  }
  for (const s of await coldSweepsOf(db, coin, 'BROADCAST')) {
    if (!s.txid) continue;
    const state = await payer.state(s.txid);
    if (state.kind === 'CONFIRMED' && state.confirmations >= (opts.confirmations ?? 1)) {
      await confirmColdSweep(db, coin, s.id, state.feeUnits);
      changed++;
    } else if (state.kind === 'FAILED') {
      await failColdSweep(db, coin, s.id, state.reason, state.feeUnits);
      changed++;
    } else if (state.kind === 'MISSING' && nonce) {
      await sendColdSweep(db, payer, s);
    } else if (state.kind === 'MISSING') {
      await failColdSweep(db, coin, s.id, 'the transaction is in no block and no mempool');
      changed++;
    }
  }
  return changed;
}

/** The swept coins stay the platform's; only the fee left, posted with the status in one transaction. */
async function confirmColdSweep(db: Db, coin: Coin, id: number, feeUnits: bigint): Promise<void> {
  await inTx(db, async (tx) => {
    const s = await lockColdSweep(tx, id);
    if (s?.status !== 'BROADCAST') return;
    await endColdSweep(tx, id, 'CONFIRMED');
    if (feeUnits > 0n)
      await post(tx, movements.coldSweepNetworkFee({ coldSweepId: id, coin, units: feeUnits }));
  });
}

/** True when `coin` has a cold sweep holding a nonce it was not signed for yet (the pipeline waits behind it). */
export function coldSweepUnsigned(
  tx: Parameters<typeof hasUnsignedColdSweep>[0],
  coin: Coin,
): Promise<boolean> {
  return COLD_NONCE_COINS.has(coin) ? hasUnsignedColdSweep(tx, coin) : Promise.resolve(false);
}
