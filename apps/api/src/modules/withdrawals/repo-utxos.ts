import type { Coin } from '@p2p/contract';
import { sql } from 'kysely';
import type { DbOrTx, Tx } from '../../db/client.ts';

/**
 * The platform's spendable outputs (020_chain_payers.sql, DECISIONS §18): credited deposits (a trigger on the
 * transfers table adds them as the watcher credits them) and the change of our own transactions. Amounts in
 * the chain's unit (satoshi, sun) as bigint; a `path` is relative to the coin's account key ("0/5", "1/3").
 */

export interface PlatformOutput {
  coin: Coin;
  txid: string;
  vout: number;
  units: bigint;
  address: string;
  path: string;
  source: 'DEPOSIT' | 'CHANGE';
  confirmed: boolean;
  reservedBy: string | null;
  spentBy: string | null;
}

interface OutputRow {
  coin: Coin;
  txid: string;
  vout: number;
  units: string;
  address: string;
  path: string;
  source: 'DEPOSIT' | 'CHANGE';
  confirmed: boolean;
  reserved_by: string | null;
  spent_by: string | null;
}

const toOutput = (r: OutputRow): PlatformOutput => ({
  coin: r.coin,
  txid: r.txid,
  vout: r.vout,
  units: BigInt(r.units),
  address: r.address,
  path: r.path,
  source: r.source,
  confirmed: r.confirmed,
  reservedBy: r.reserved_by,
  spentBy: r.spent_by,
});

/** An output's key. */
export interface OutPoint {
  txid: string;
  vout: number;
}

/**
 * The coin's confirmed outputs nobody reserved or spent, largest first, locked for the caller's transaction
 * (`skip locked`: a concurrent attempt selecting at the same moment takes other outputs, never the same).
 * At most `limit` rows.
 */
export async function lockFreeOutputs(tx: Tx, coin: Coin, limit = 500): Promise<PlatformOutput[]> {
  const r = await sql<OutputRow>`select coin, txid, vout, units::text as units, address, path, source,
      confirmed, reserved_by, spent_by from chain_outputs
    where coin = ${coin} and confirmed and reserved_by is null and spent_by is null
    order by units desc, txid, vout limit ${limit} for update skip locked`.execute(tx);
  return r.rows.map(toOutput);
}

/** The outputs `refs` of `coin`, locked for the caller's transaction (waiting for another holder). */
export async function lockOutputs(tx: Tx, coin: Coin, refs: readonly OutPoint[]): Promise<PlatformOutput[]> {
  if (refs.length === 0) return [];
  const r = await sql<OutputRow>`select coin, txid, vout, units::text as units, address, path, source,
      confirmed, reserved_by, spent_by from chain_outputs
    where coin = ${coin} and (txid, vout) in (select * from unnest(${refs.map((o) => o.txid)}::text[],
      ${refs.map((o) => o.vout)}::int[]))
    order by txid, vout for update`.execute(tx);
  return r.rows.map(toOutput);
}

/** Marks `refs` as reserved by attempt `requestId` (a replacement takes over its predecessor's outputs). */
export async function reserveOutputs(
  tx: Tx,
  coin: Coin,
  refs: readonly OutPoint[],
  requestId: string,
): Promise<void> {
  for (const o of refs) {
    await sql`update chain_outputs set reserved_by = ${requestId}
      where coin = ${coin} and txid = ${o.txid} and vout = ${o.vout} and spent_by is null`.execute(tx);
  }
}

/**
 * Gives back the outputs attempt `requestId` reserved and no confirmed transaction spent (the withdrawal was
 * rejected after its attempt failed): they can be selected again. Returns how many. For the withdrawal
 * pipeline (DECISIONS §18 "rejects (refund)").
 */
export async function releaseOutputs(tx: Tx, coin: Coin, requestId: string): Promise<number> {
  const r = await sql`update chain_outputs set reserved_by = null
    where coin = ${coin} and reserved_by = ${requestId} and spent_by is null`.execute(tx);
  return Number(r.numAffectedRows ?? 0n);
}

/** The next index n of the coin's internal chain 1/n (BTC change), under the counter row's lock. */
export async function nextInternalIndex(tx: Tx, coin: Coin): Promise<number> {
  const r = await sql<{ next_index: number }>`insert into chain_key_counters (coin) values (${coin})
    on conflict (coin) do update set next_index = chain_key_counters.next_index + 1
    returning next_index`.execute(tx);
  const n = r.rows[0]?.next_index;
  if (n === undefined) throw new Error('chain_key_counters answered no row');
  return n;
}

/** Remembers that `address` (path 1/n) is the change of attempt `requestId`. */
export async function recordChangeAddress(
  tx: Tx,
  coin: Coin,
  address: string,
  path: string,
  requestId: string,
): Promise<void> {
  await sql`insert into chain_change_addresses (coin, address, path, request_id)
    values (${coin}, ${address}, ${path}, ${requestId}) on conflict do nothing`.execute(tx);
}

/** The change addresses among `addresses`, with their paths. */
export async function changeAddresses(
  db: DbOrTx,
  coin: Coin,
  addresses: readonly string[],
): Promise<Map<string, string>> {
  if (addresses.length === 0) return new Map();
  const r = await sql<{ address: string; path: string }>`select address, path from chain_change_addresses
    where coin = ${coin} and address = any(${[...addresses]}::text[])`.execute(db);
  return new Map(r.rows.map((x) => [x.address, x.path]));
}

/** Adds an unconfirmed change output of our own transaction (idempotent). */
export async function addChangeOutput(
  db: DbOrTx,
  o: { coin: Coin; txid: string; vout: number; units: bigint; address: string; path: string },
): Promise<void> {
  await sql`insert into chain_outputs (coin, txid, vout, units, address, path, source, confirmed)
    values (${o.coin}, ${o.txid}, ${o.vout}, ${o.units.toString()}, ${o.address}, ${o.path}, 'CHANGE', false)
    on conflict do nothing`.execute(db);
}

/** The sum (chain units) of the outputs `refs`, or null when one of them is not ours. */
export async function outputsValue(
  db: DbOrTx,
  coin: Coin,
  refs: readonly OutPoint[],
): Promise<bigint | null> {
  let sum = 0n;
  for (const o of refs) {
    const r = await sql<{ units: string }>`select units::text as units from chain_outputs
      where coin = ${coin} and txid = ${o.txid} and vout = ${o.vout}`.execute(db);
    const row = r.rows[0];
    if (!row) return null;
    sum += BigInt(row.units);
  }
  return sum;
}

/**
 * Transaction `txid` is in a block: its change becomes spendable and the outputs it spends are spent for good
 * (any other attempt that spent them can never confirm).
 */
export async function settleSpend(
  db: DbOrTx,
  coin: Coin,
  txid: string,
  spent: readonly OutPoint[],
): Promise<void> {
  await sql`update chain_outputs set confirmed = true where coin = ${coin} and txid = ${txid}`.execute(db);
  for (const o of spent) {
    await sql`update chain_outputs set spent_by = ${txid}
      where coin = ${coin} and txid = ${o.txid} and vout = ${o.vout}`.execute(db);
  }
}

/** The coin's unspent outputs (confirmed or not), for balances and tests. */
export async function unspentOutputs(db: DbOrTx, coin: Coin): Promise<PlatformOutput[]> {
  const r = await sql<OutputRow>`select coin, txid, vout, units::text as units, address, path, source,
      confirmed, reserved_by, spent_by from chain_outputs
    where coin = ${coin} and spent_by is null order by created_at, txid, vout`.execute(db);
  return r.rows.map(toOutput);
}

/** A transaction a payer sent: its bytes and the block it was last seen in. */
export interface SentTx {
  txid: string;
  requestId: string | null;
  signedTx: string;
  blockHash: string | null;
}

/** Records a transaction about to be sent (idempotent: the first bytes stay); false when it was on record. */
export async function recordSent(
  db: DbOrTx,
  coin: Coin,
  s: { txid: string; requestId: string | null; signedTx: string },
): Promise<boolean> {
  const r = await sql`insert into chain_sent (coin, txid, request_id, signed_tx)
    values (${coin}, ${s.txid}, ${s.requestId}, ${s.signedTx}) on conflict do nothing`.execute(db);
  return Number(r.numAffectedRows ?? 0n) > 0;
}

/** The sent transaction `txid` of `coin`, or undefined. */
export async function sentTx(db: DbOrTx, coin: Coin, txid: string): Promise<SentTx | undefined> {
  const r = await sql<{
    txid: string;
    request_id: string | null;
    signed_tx: string;
    block_hash: string | null;
  }>`
    select txid, request_id, signed_tx, block_hash from chain_sent
    where coin = ${coin} and txid = ${txid}`.execute(db);
  const row = r.rows[0];
  return row
    ? { txid: row.txid, requestId: row.request_id, signedTx: row.signed_tx, blockHash: row.block_hash }
    : undefined;
}

/** Remembers the block `txid` was seen in (null: it left it). */
export async function setSentBlock(
  db: DbOrTx,
  coin: Coin,
  txid: string,
  blockHash: string | null,
): Promise<void> {
  await sql`update chain_sent set block_hash = ${blockHash} where coin = ${coin} and txid = ${txid}`.execute(
    db,
  );
}
