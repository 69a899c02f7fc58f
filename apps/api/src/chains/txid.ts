import type { Coin } from '@p2p/contract';

const HEX64 = /^(0x)?([0-9a-fA-F]{64})$/;

/**
 * The one spelling of a transaction id that ledger refs and the transfers' unique key use (DECISIONS §5, §17):
 * ETH `0x` + lower-case hex (as JSON-RPC writes it), XRP upper-case hex (as rippled writes it), BTC and TRX
 * lower-case hex. A deposit credited by an operator who typed the id in another case, or with or without `0x`,
 * is then the same movement as the watcher's credit of it, and happens once. Anything that is not 64 hex digits
 * is returned as given (it can never be the id of a deposit the watcher finds).
 */
export function canonicalTxid(coin: Coin, txid: string): string {
  const m = HEX64.exec(txid.trim());
  if (!m?.[2]) return txid;
  const hex = m[2];
  if (coin === 'ETH') return `0x${hex.toLowerCase()}`;
  if (coin === 'XRP') return hex.toUpperCase();
  return hex.toLowerCase();
}
