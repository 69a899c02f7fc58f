import { COINS, type Coin, fromUnits, toUnits } from '@p2p/contract';
import { sql } from 'kysely';
import { z } from 'zod';
import { type ChainNetwork, isValidAddress } from '../../chains/index.ts';
import { chainUnitsToLedger, ledgerToChainUnits } from '../../chains/units.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { movements, post } from '../../ledger/index.ts';
import type { ChainPayer } from './payer.ts';
import { releaseOutputs } from './repo-utxos.ts';

/**
 * The hot-wallet cap and the cold share (DECISIONS §18). Above HOT_WALLET_MAX_<COIN> the excess is swept to
 * COLD_ADDRESS_<COIN> (its key is offline); the console shows per coin the hot balance, the cold address and
 * balance, member liabilities and the cold share against COLD_SHARE_MIN_PCT (80, Korea's user-protection act).
 * Amounts: ledger units (10^-8 coin) as bigint inside, decimal strings on the wire.
 */

export interface CustodyConfig {
  /** HOT_WALLET_MAX_<COIN>, ledger units; absent = no cap. */
  hotMax: Partial<Record<Coin, bigint>>;
  /** COLD_ADDRESS_<COIN>, valid on the configured network. */
  coldAddress: Partial<Record<Coin, string>>;
  /** COLD_SHARE_MIN_PCT (default 80). */
  coldShareMinPct: number;
  /** CHAIN_FEE_RATE_BTC, sat/vB (default 20). */
  feeRateBtc: number;
}

const amount = z
  .string()
  .regex(/^(0|[1-9]\d{0,11})(\.\d{1,8})?$/, 'a decimal coin amount, at most 8 decimals');

/**
 * Reads HOT_WALLET_MAX_<COIN>, COLD_ADDRESS_<COIN>, COLD_SHARE_MIN_PCT and CHAIN_FEE_RATE_BTC from `env`.
 * Throws a readable Error at start for a cold address that is not an address of its coin on `network`, a cap
 * that is not an amount, a percentage outside 0..100 or a fee rate outside 1..1000 sat/vB.
 */
export function loadCustodyConfig(
  env: Record<string, string | undefined>,
  network: ChainNetwork,
): CustodyConfig {
  const hotMax: CustodyConfig['hotMax'] = {};
  const coldAddress: CustodyConfig['coldAddress'] = {};
  for (const coin of COINS) {
    const max = env[`HOT_WALLET_MAX_${coin}`];
    if (max) {
      if (!amount.safeParse(max).success)
        throw new Error(`HOT_WALLET_MAX_${coin}: not a coin amount: ${max}`);
      hotMax[coin] = toUnits(max);
    }
    const cold = env[`COLD_ADDRESS_${coin}`];
    if (cold) {
      if (!isValidAddress(coin, cold, network))
        throw new Error(`COLD_ADDRESS_${coin}: not a ${coin} address on ${network}`);
      coldAddress[coin] = cold;
    }
  }
  const pct = Number(env.COLD_SHARE_MIN_PCT ?? 80);
  if (!Number.isFinite(pct) || pct < 0 || pct > 100) throw new Error('COLD_SHARE_MIN_PCT must be 0..100');
  const rate = Number(env.CHAIN_FEE_RATE_BTC ?? 20);
  if (!Number.isInteger(rate) || rate < 1 || rate > 1000)
    throw new Error('CHAIN_FEE_RATE_BTC must be 1..1000 sat/vB');
  return { hotMax, coldAddress, coldShareMinPct: pct, feeRateBtc: rate };
}

/** Where one coin's balances on chain come from (chain units: satoshi, sun, ...). */
export interface CustodySource {
  coin: Coin;
  /** What the platform's hot keys hold (BTC: its unspent outputs; TRX: the hot address and unswept deposits). */
  hotBalance(): Promise<bigint>;
  /** What `address` holds on chain. */
  balanceOf(address: string): Promise<bigint>;
}

export interface CustodyRow {
  coinCode: Coin;
  hotBalance: string | null;
  coldAddress: string | null;
  coldBalance: string | null;
  liabilities: string;
  /** cold / liabilities in percent, two decimals; null without liabilities or a cold balance. */
  coldSharePct: number | null;
  /** True when the cold share is below COLD_SHARE_MIN_PCT (or unknown while members hold coins). */
  warning: boolean;
}

/** What the platform owes members in `coin`: their available and escrow balances and pending withdrawals. */
export async function memberLiabilities(db: DbOrTx, coin: Coin): Promise<bigint> {
  const r = await sql<{ total: string }>`select coalesce(sum(balance), 0)::text as total from ledger_accounts
    where coin = ${coin} and (member_id is not null or kind = 'withdrawal_pending')`.execute(db);
  return toUnits(r.rows[0]?.total ?? '0');
}

/** The custody view per coin (GET /ops/api/v1/chain/custody). A node that fails leaves its balances null. */
export async function custody(
  db: Db,
  cfg: CustodyConfig,
  sources: readonly CustodySource[],
): Promise<CustodyRow[]> {
  const rows: CustodyRow[] = [];
  for (const coin of COINS) {
    const source = sources.find((s) => s.coin === coin);
    const cold = cfg.coldAddress[coin] ?? null;
    const liabilities = await memberLiabilities(db, coin);
    const hot = source ? await source.hotBalance().catch(() => null) : null;
    const coldUnits = source && cold ? await source.balanceOf(cold).catch(() => null) : null;
    const coldLedger = coldUnits === null ? null : chainUnitsToLedger(coin, coldUnits);
    const pct =
      coldLedger !== null && liabilities > 0n ? Number((coldLedger * 10_000n) / liabilities) / 100 : null;
    rows.push({
      coinCode: coin,
      hotBalance: hot === null ? null : fromUnits(chainUnitsToLedger(coin, hot)),
      coldAddress: cold,
      coldBalance: coldLedger === null ? null : fromUnits(coldLedger),
      liabilities: fromUnits(liabilities),
      coldSharePct: pct,
      warning: liabilities > 0n && (pct === null || pct < cfg.coldShareMinPct),
    });
  }
  return rows;
}

/** The signer's POST /v1/sign as the sweep needs it (apps/api/src/chains/signer-client.ts `sign`). */
export type SignFn = (req: {
  requestId: string;
  coin: Coin;
  purpose: 'WITHDRAWAL' | 'SWEEP' | 'COLD_SWEEP';
  intent: Record<string, unknown>;
}) => Promise<{ txid: string; signedTx: string }>;

/**
 * Sweeps what the hot wallet of `payer.coin` holds above HOT_WALLET_MAX_<COIN> to COLD_ADDRESS_<COIN>: one
 * open COLD_SWEEP per coin (a unique index: of two instances at once exactly one inserts), requestId
 * `cold:<COIN>:<n>`, prepared by the coin's payer like a withdrawal, signed, stored, broadcast. Returns the
 * sweep's requestId, or null when nothing is above the cap, no cap or cold address is set, or a sweep is open.
 * For the withdrawal worker's loop (or any job holding a lease).
 */
export async function sweepExcessToCold(
  db: Db,
  deps: { cfg: CustodyConfig; payer: ChainPayer; source: CustodySource; sign: SignFn },
): Promise<string | null> {
  const coin = deps.payer.coin;
  const max = deps.cfg.hotMax[coin];
  const cold = deps.cfg.coldAddress[coin];
  if (max === undefined || !cold) return null;
  const hot = chainUnitsToLedger(coin, await deps.source.hotBalance());
  if (hot <= max) return null;
  // Whole chain units only (a TRX sweep is in sun): round the excess down to what the chain can carry.
  const excess = chainUnitsToLedger(coin, ledgerToChainUnits(coin, hot - max));
  if (excess <= 0n) return null;
  const prepared = await db.transaction().execute(async (tx) => {
    const row = await sql<{
      id: number;
    }>`insert into cold_sweeps (coin, purpose, request_id, from_path, to_address, units)
      values (${coin}, 'COLD_SWEEP', 'cold:' || ${coin} || ':pending:' || gen_random_uuid(), 'hot', ${cold},
        ${ledgerToChainUnits(coin, excess).toString()})
      on conflict do nothing returning id`.execute(tx);
    const id = row.rows[0]?.id;
    if (id === undefined) return null;
    const requestId = `cold:${coin}:${id}`;
    await sql`update cold_sweeps set request_id = ${requestId} where id = ${id}`.execute(tx);
    const p = await deps.payer.prepare(tx, {
      requestId,
      withdrawalId: 0,
      address: cold,
      destTag: null,
      units: excess,
      replaces: null,
    });
    return { id, requestId, intent: p.intent };
  });
  if (!prepared) return null;
  let signed: { txid: string; signedTx: string };
  try {
    signed = await deps.sign({
      requestId: prepared.requestId,
      coin,
      purpose: 'COLD_SWEEP',
      intent: prepared.intent,
    });
  } catch (err) {
    // Nothing was sent: the outputs go back and the next pass may start another sweep.
    await failSweep(
      db,
      coin,
      prepared.id,
      prepared.requestId,
      `not signed: ${(err as Error).message ?? err}`,
    );
    throw err;
  }
  await sql`update cold_sweeps set txid = ${signed.txid}, status = 'BROADCAST', updated_at = now()
    where id = ${prepared.id}`.execute(db);
  const sent = await deps.payer.broadcast(signed.signedTx, signed.txid);
  if (sent.kind === 'REJECTED') await failSweep(db, coin, prepared.id, prepared.requestId, sent.reason);
  return prepared.requestId;
}

async function failSweep(db: Db, coin: Coin, id: number, requestId: string, reason: string): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await sql`update cold_sweeps set status = 'FAILED', reason = ${reason.slice(0, 300)}, updated_at = now()
      where id = ${id}`.execute(tx);
    await releaseOutputs(tx, coin, requestId);
  });
}

/**
 * Follows the coin's broadcast cold sweeps: CONFIRMED when the payer says so, FAILED (outputs released, a new
 * sweep may start) when the transaction is nowhere. Returns how many changed.
 */
export async function settleColdSweeps(db: Db, payer: ChainPayer): Promise<number> {
  // A sweep left PREPARED by a crash between its preparation and storing its txid was never sent (sending
  // comes after the txid is stored): after five minutes it fails, its outputs go back, a new one may start.
  const stale = await sql<{ id: number; request_id: string }>`select id, request_id from cold_sweeps
    where coin = ${payer.coin} and purpose = 'COLD_SWEEP' and status = 'PREPARED' and txid is null
      and updated_at < now() - interval '5 minutes'`.execute(db);
  for (const s of stale.rows) await failSweep(db, payer.coin, s.id, s.request_id, 'left unsigned by a crash');
  const open = await sql<{ id: number; request_id: string; txid: string }>`select id, request_id, txid
    from cold_sweeps where coin = ${payer.coin} and purpose = 'COLD_SWEEP' and status = 'BROADCAST'`.execute(
    db,
  );
  let changed = 0;
  for (const s of open.rows) {
    const state = await payer.state(s.txid);
    if (state.kind === 'CONFIRMED') {
      // The swept coins stay the platform's; only the fee left, posted with the status in one transaction.
      await db.transaction().execute(async (tx) => {
        const done = await sql`update cold_sweeps set status = 'CONFIRMED', updated_at = now()
          where id = ${s.id} and status = 'BROADCAST'`.execute(tx);
        if (Number(done.numAffectedRows ?? 0) === 1 && state.feeUnits > 0n) {
          await post(
            tx,
            movements.coldSweepNetworkFee({ coldSweepId: s.id, coin: payer.coin, units: state.feeUnits }),
          );
        }
      });
      changed++;
    } else if (state.kind === 'MISSING' || state.kind === 'FAILED') {
      const reason = state.kind === 'FAILED' ? state.reason : 'the transaction is in no block and no mempool';
      await failSweep(db, payer.coin, s.id, s.request_id, reason);
      changed++;
    }
  }
  return changed;
}

/** BTC: the hot balance is the platform's unspent confirmed outputs; other addresses via the node's UTXO scan. */
export function btcCustodySource(db: DbOrTx, balanceOf: (address: string) => Promise<bigint>): CustodySource {
  return {
    coin: 'BTC',
    async hotBalance() {
      const r = await sql<{ total: string }>`select coalesce(sum(units), 0)::text as total from chain_outputs
        where coin = 'BTC' and confirmed and spent_by is null`.execute(db);
      return BigInt(r.rows[0]?.total ?? '0');
    },
    balanceOf,
  };
}

/** TRX: the hot address's balance on chain; any address's from the node. */
export function trxCustodySource(
  hotAddress: string,
  balanceOf: (address: string) => Promise<bigint>,
): CustodySource {
  return { coin: 'TRX', hotBalance: () => balanceOf(hotAddress), balanceOf };
}
