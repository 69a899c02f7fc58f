import { sql } from 'kysely';
import type { DbOrTx } from '../../db/client.ts';

/**
 * The SQL the XRP payer needs beyond the pipeline's (DECISIONS §18): the signed blob of a transaction it may have
 * to submit again (what it recorded when sending, else what the pipeline stored before sending), and the txid of
 * the attempt a replacement replaces.
 */

/** The signed blob (hex) of XRP transaction `txid`: chain_sent first, else the attempt or cold sweep that stored it. */
export async function xrpSignedBlob(db: DbOrTx, txid: string): Promise<string | null> {
  const r = await sql<{ signed_tx: string }>`
    select signed_tx from chain_sent where coin = 'XRP' and txid = ${txid}
    union all
    select signed_tx from withdrawal_attempts where coin = 'XRP' and txid = ${txid} and signed_tx is not null
    union all
    select signed_tx from cold_sweeps where coin = 'XRP' and txid = ${txid} and signed_tx is not null
    limit 1`.execute(db);
  return r.rows[0]?.signed_tx ?? null;
}

/** The txid of the XRP attempt signed under `requestId`, or null when it was never signed. */
export async function xrpAttemptTxid(db: DbOrTx, requestId: string): Promise<string | null> {
  const r = await sql<{ txid: string | null }>`
    select txid from withdrawal_attempts where coin = 'XRP' and request_id = ${requestId}`.execute(db);
  return r.rows[0]?.txid ?? null;
}
