import { COINS, type Coin, fromUnits, toUnits } from '@p2p/contract';
import { sql } from 'kysely';
import { z } from 'zod';
import { type ChainNetwork, isValidAddress } from '../../chains/index.ts';
import { chainUnitsToLedger } from '../../chains/units.ts';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';

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

/** A cold sweep as stored (cold_sweeps, 020 and 034): `units` in chain units, `intent` / `reservation` as prepared. */
export interface ColdSweepRow {
  id: number;
  coin: Coin;
  request_id: string;
  status: 'PREPARED' | 'BROADCAST' | 'CONFIRMED' | 'FAILED';
  units: string;
  txid: string | null;
  signed_tx: string | null;
  intent: Record<string, unknown> | null;
  reservation: Record<string, unknown> | null;
  updated_at: Date;
}

/**
 * Inserts the coin's open COLD_SWEEP of `units` (chain units) to `to` and names it `cold:<COIN>:<id>`; null when
 * one is open already (the partial unique index: of two instances at once exactly one inserts).
 */
export async function insertColdSweep(
  tx: Tx,
  s: { coin: Coin; to: string; units: bigint },
): Promise<{ id: number; requestId: string } | null> {
  const row = await sql<{
    id: number;
  }>`insert into cold_sweeps (coin, purpose, request_id, from_path, to_address,
      units) values (${s.coin}, 'COLD_SWEEP', 'cold:' || ${s.coin} || ':pending:' || gen_random_uuid(), 'hot',
      ${s.to}, ${s.units.toString()})
    on conflict do nothing returning id`.execute(tx);
  const id = row.rows[0]?.id;
  if (id === undefined) return null;
  const requestId = `cold:${s.coin}:${id}`;
  await sql`update cold_sweeps set request_id = ${requestId} where id = ${id}`.execute(tx);
  return { id: Number(id), requestId };
}

/** Stores what the payer prepared for cold sweep `id` (the intent the signer is asked with, the nonce taken). */
export async function storeColdIntent(
  tx: Tx,
  id: number,
  intent: Record<string, unknown>,
  reservation: Record<string, unknown>,
): Promise<void> {
  await sql`update cold_sweeps set intent = ${JSON.stringify(intent)}::jsonb,
      reservation = ${JSON.stringify(reservation)}::jsonb, updated_at = now() where id = ${id}`.execute(tx);
}

/** PREPARED -> BROADCAST with the signed transaction and its txid (before it is sent). False when not PREPARED. */
export async function storeColdSigned(
  db: DbOrTx,
  id: number,
  txid: string,
  signedTx: string,
): Promise<boolean> {
  const r = await sql`update cold_sweeps set txid = ${txid}, signed_tx = ${signedTx}, status = 'BROADCAST',
      broadcast_at = now(), updated_at = now() where id = ${id} and status = 'PREPARED'`.execute(db);
  return Number(r.numAffectedRows ?? 0) === 1;
}

const coldColumns = sql`id, coin, request_id, status, units::text as units, txid, signed_tx, intent, reservation,
  updated_at`;

/** The coin's COLD_SWEEPs in `status`, oldest first; `staleSec`: only those untouched that long. */
export async function coldSweepsOf(
  db: DbOrTx,
  coin: Coin,
  status: 'PREPARED' | 'BROADCAST',
  staleSec = 0,
): Promise<ColdSweepRow[]> {
  const r = await sql<ColdSweepRow>`select ${coldColumns} from cold_sweeps
    where coin = ${coin} and purpose = 'COLD_SWEEP' and status = ${status}
      and updated_at <= now() - make_interval(secs => ${staleSec}) order by id`.execute(db);
  return r.rows.map((x) => ({ ...x, id: Number(x.id) }));
}

/** Cold sweep `id` under its row lock. */
export async function lockColdSweep(tx: Tx, id: number): Promise<ColdSweepRow | undefined> {
  const r =
    await sql<ColdSweepRow>`select ${coldColumns} from cold_sweeps where id = ${id} for update`.execute(tx);
  const row = r.rows[0];
  return row ? { ...row, id: Number(row.id) } : undefined;
}

/** Ends cold sweep `id` with `status` (and `reason` when it FAILED). */
export async function endColdSweep(
  tx: Tx,
  id: number,
  status: 'CONFIRMED' | 'FAILED',
  reason: string | null = null,
): Promise<void> {
  await sql`update cold_sweeps set status = ${status}, reason = ${reason?.slice(0, 300) ?? null},
      updated_at = now() where id = ${id}`.execute(tx);
}

/** True when `coin` has a cold sweep holding a nonce it has not been signed for (withdrawals wait behind it). */
export async function hasUnsignedColdSweep(tx: Tx, coin: Coin): Promise<boolean> {
  const r = await sql`select 1 from cold_sweeps where coin = ${coin} and purpose = 'COLD_SWEEP'
      and status = 'PREPARED' limit 1`.execute(tx);
  return r.rows.length > 0;
}

/** True when `coin` has a withdrawal attempt not signed yet (a cold sweep then waits: nonces stay in order). */
export async function hasUnsignedAttempt(tx: Tx, coin: Coin): Promise<boolean> {
  const r = await sql`select 1 from withdrawal_attempts where coin = ${coin} and status = 'PREPARED'
      limit 1`.execute(tx);
  return r.rows.length > 0;
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
