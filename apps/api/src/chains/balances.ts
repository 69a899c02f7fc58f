import { COINS, type Coin } from '@p2p/contract';
import { type Address, createPublicClient, http, isAddress, type PublicClient } from 'viem';
import { isValidClassicAddress } from 'xrpl';
import { z } from 'zod';
import type { Config } from '../config.ts';
import { decodeSegwit } from './btc.ts';
import { btcRpc } from './btc-writer.ts';
import { callNode, nodeTarget } from './node-call.ts';
import { nodeEndpoint } from './node-http.ts';
import { ChainNodeError } from './reader.ts';
import { trxWriter } from './trx-writer.ts';

/**
 * What the platform's addresses hold on chain (DECISIONS §20, proof of reserves), read from the nodes of §17.
 * `balances` answers one entry per address asked, in the chain's own unit (satoshi, wei, drop, sun), at the
 * node's newest settled state (BTC: the UTXO set at the tip; ETH: block `latest`, never `pending`; XRP: the
 * newest validated ledger; TRX: the account as the node has it). Throws ChainNodeError when the node is down,
 * slow or answers something malformed: a failing node never reads as a zero balance.
 */
export interface BalanceReader {
  readonly coin: Coin;
  balances(addresses: readonly string[]): Promise<Map<string, bigint>>;
}

/** Node calls in flight at once for the coins read one address per call. */
const PARALLEL = 8;

async function eachAddress(
  addresses: readonly string[],
  read: (a: string) => Promise<bigint>,
): Promise<Map<string, bigint>> {
  const out = new Map<string, bigint>();
  const unique = [...new Set(addresses)];
  for (let i = 0; i < unique.length; i += PARALLEL) {
    const part = unique.slice(i, i + PARALLEL);
    const values = await Promise.all(part.map(read));
    for (const [k, a] of part.entries()) out.set(a, values[k] as bigint);
  }
  return out;
}

/** The scriptPubKey of a segwit address, hex: what `raw(...)` descriptors and scan results carry. */
function scriptHex(address: string): string {
  const s = decodeSegwit(address);
  if (!s) throw new ChainNodeError('BTC', `not a segwit address: ${address}`);
  const op = s.version === 0 ? 0 : 0x50 + s.version;
  return Buffer.from([op, s.program.length, ...s.program]).toString('hex');
}

const scanAnswer = z.looseObject({
  success: z.literal(true),
  total_amount: z.number().nonnegative().finite(),
  unspents: z.array(
    z.looseObject({
      scriptPubKey: z.string().regex(/^[0-9a-f]+$/),
      amount: z.number().nonnegative().finite(),
    }),
  ),
});

/** BTC amounts as the node prints them (8 decimals; below 2^53 satoshi, so the double is exact) to satoshi. */
function satoshi(btc: number): bigint {
  return BigInt(btc.toFixed(8).replace('.', ''));
}

/**
 * BTC: one `scantxoutset` over `raw(<scriptPubKey>)` descriptors of every address (no wallet, no watch-only
 * import; a scan reads the whole UTXO set once, so all addresses go in one call). Descriptors by script rather
 * than `addr(...)` keep it independent of the node's address prefix (Litecoin regtest in the tests). The sum of
 * the outputs must equal the node's `total_amount`, and every output must pay one of the scripts asked.
 */
export function btcBalances(url: string, timeoutMs?: number): BalanceReader {
  // A scan of mainnet's UTXO set takes minutes, not the per-call timeout of the watchers.
  const call = btcRpc(url, Math.max(timeoutMs ?? 0, 600_000));
  return {
    coin: 'BTC',
    async balances(addresses) {
      const byScript = new Map(addresses.map((a) => [scriptHex(a), a]));
      const out = new Map(addresses.map((a) => [a, 0n]));
      if (byScript.size === 0) return out;
      const scan = [...byScript.keys()].map((s) => `raw(${s})`);
      const r = await call('scantxoutset', ['start', scan], scanAnswer);
      let total = 0n;
      for (const u of r.unspents) {
        const address = byScript.get(u.scriptPubKey);
        if (!address) throw new ChainNodeError('BTC', `scantxoutset: an output of a script not asked for`);
        out.set(address, (out.get(address) ?? 0n) + satoshi(u.amount));
        total += satoshi(u.amount);
      }
      if (total !== satoshi(r.total_amount)) {
        throw new ChainNodeError('BTC', 'scantxoutset: the outputs do not add up to total_amount');
      }
      return out;
    },
  };
}

/** ETH: `eth_getBalance` at `latest` through viem, eight addresses at a time. */
export function ethBalances(url: string, timeoutMs: number): BalanceReader {
  const endpoint = nodeEndpoint(url);
  const client = createPublicClient({
    transport: http(endpoint.url, {
      timeout: timeoutMs,
      retryCount: 0,
      fetchOptions: { headers: endpoint.headers, redirect: 'error' },
    }),
  }) as PublicClient;
  return {
    coin: 'ETH',
    balances: (addresses) =>
      eachAddress(addresses, async (a) => {
        if (!isAddress(a)) throw new ChainNodeError('ETH', `not an address: ${a}`);
        try {
          return await client.getBalance({ address: a as Address, blockTag: 'latest' });
        } catch (err) {
          const why = (err as Error).message.split('\n')[0]?.slice(0, 200);
          throw new ChainNodeError('ETH', `eth_getBalance ${a}: ${why}`, { cause: err });
        }
      }),
  };
}

const drops = z
  .string()
  .regex(/^\d{1,18}$/)
  .refine((s) => BigInt(s) <= 100_000_000_000_000_000n, 'more drops than exist');
const accountInfo = z.object({
  result: z.union([
    z.looseObject({
      status: z.literal('success'),
      validated: z.literal(true),
      account_data: z.looseObject({ Account: z.string(), Balance: drops }),
    }),
    z.looseObject({ status: z.literal('error'), error: z.string() }),
  ]),
});

/**
 * XRP: `account_info` in the newest validated ledger (`strict`); an account the ledger does not hold
 * (`actNotFound`) holds 0. The answer must be validated and name the account asked.
 */
export function xrpBalances(url: string, timeoutMs?: number): BalanceReader {
  const ep = nodeTarget('XRP', url, timeoutMs);
  return {
    coin: 'XRP',
    balances: (addresses) =>
      eachAddress(addresses, async (account) => {
        if (!isValidClassicAddress(account)) throw new ChainNodeError('XRP', `not an account: ${account}`);
        const params = [{ account, ledger_index: 'validated', strict: true }];
        const r = await callNode(
          ep,
          '/',
          { method: 'account_info', params },
          accountInfo,
          `account_info ${account}`,
        );
        if (r.result.status === 'error') {
          if (r.result.error === 'actNotFound') return 0n;
          throw new ChainNodeError('XRP', `account_info ${account}: ${r.result.error}`);
        }
        if (r.result.account_data.Account !== account) {
          throw new ChainNodeError('XRP', `account_info ${account}: answered another account`);
        }
        return BigInt(r.result.account_data.Balance);
      }),
  };
}

/** TRX: `/wallet/getaccount` (0 for an account the chain does not know yet), CHAIN_API_KEY_TRX sent. */
export function trxBalances(url: string, opts: { timeoutMs?: number; apiKey?: string }): BalanceReader {
  const writer = trxWriter(url, opts);
  return { coin: 'TRX', balances: (addresses) => eachAddress(addresses, (a) => writer.balance(a)) };
}

/**
 * The balance reader of every coin with a node configured (CHAIN_RPC_<COIN>, CHAIN_TIMEOUT_MS); a coin without
 * one has none and its reserves stay the operator's declared figure (DECISIONS §20).
 */
export function createBalanceReaders(config: Config): Partial<Record<Coin, BalanceReader>> {
  const { rpc, timeoutMs, trxApiKey } = config.chainWatch;
  const make: Record<Coin, (url: string) => BalanceReader> = {
    BTC: (url) => btcBalances(url, timeoutMs),
    ETH: (url) => ethBalances(url, timeoutMs),
    XRP: (url) => xrpBalances(url, timeoutMs),
    TRX: (url) => trxBalances(url, { timeoutMs, apiKey: trxApiKey }),
  };
  const out: Partial<Record<Coin, BalanceReader>> = {};
  for (const coin of COINS) {
    const url = rpc[coin];
    if (url) out[coin] = make[coin](url);
  }
  return out;
}
