import type { Coin } from '@p2p/contract';
import { ethWriter } from '../../chains/eth-writer.ts';
import { chainKeys, depositAddress, hotAddress, xrpDepositAccount } from '../../chains/index.ts';
import { trxWriter } from '../../chains/trx-writer.ts';
import { chainUnitsToLedger } from '../../chains/units.ts';
import { xrpWriter } from '../../chains/xrp-writer.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { ethPayer } from './eth-payer.ts';
import { ethSweeps } from './eth-sweeps.ts';
import type { ChainPayer } from './payer.ts';
import { TrxPayer } from './trx-payer.ts';
import { trxSweeps } from './trx-sweeps.ts';
import type { Housekeeping } from './worker.ts';
import { XrpPayer } from './xrp-payer.ts';

/** One coin's way of paying, with what the console and the ledger check read of its addresses. */
export interface CoinPayout {
  payer: ChainPayer;
  /** Work besides paying, run at the start of each pass (sweeps). */
  housekeeping?: Housekeeping;
  /** The address withdrawals pay from (ETH/TRX hot address 1/0, XRP platform account; BTC: null). */
  hotAddress: string | null;
  /** What the hot address holds on chain, ledger base units (10^-8 coin). */
  hotBalance(): Promise<bigint>;
  /** What all the platform's addresses of `coin` hold on chain (deposit addresses given), ledger base units. */
  holdings(depositAddresses: string[]): Promise<bigint>;
  /** What any `address` of the coin holds on chain (the console reads COLD_ADDRESS_<COIN>), ledger base units. */
  balanceOf?(address: string): Promise<bigint>;
}

/** Makes one coin's payout from its node URL (CHAIN_RPC_<COIN>), the configuration and the database. */
export type PayoutFactory = (url: string, config: Config, db: Db) => CoinPayout;

/** Sums `read` over `addresses`, 8 node calls at a time. */
export async function sumBalances(
  addresses: string[],
  read: (a: string) => Promise<bigint>,
): Promise<bigint> {
  let total = 0n;
  for (let i = 0; i < addresses.length; i += 8) {
    const part = await Promise.all(addresses.slice(i, i + 8).map(read));
    total += part.reduce((s, v) => s + v, 0n);
  }
  return total;
}

/**
 * The payout of each coin this build can pay on chain (DECISIONS §18). A coin missing here stays paid by hand
 * (the operator's `complete` with the txid, DECISIONS §5) even with a node.
 */
export const PAYOUT_FACTORIES: Partial<Record<Coin, PayoutFactory>> = {
  ETH: (url, config) => {
    const writer = ethWriter({ url, timeoutMs: config.chainWatch.timeoutMs });
    const hot = hotAddress('ETH');
    const ledger = (wei: bigint) => chainUnitsToLedger('ETH', wei);
    return {
      payer: ethPayer({ writer, hotAddress: hot }),
      housekeeping: ethSweeps({ writer, hotAddress: hot }),
      hotAddress: hot,
      hotBalance: async () => ledger(await writer.balance(hot)),
      holdings: async (deposits) => ledger(await sumBalances([hot, ...deposits], (a) => writer.balance(a))),
      balanceOf: async (address) => ledger(await writer.balance(address)),
    };
  },
  XRP: (url, config, db) => {
    const node = xrpWriter(url, { timeoutMs: config.chainWatch.timeoutMs });
    const account = depositAddress('XRP', 0);
    const balance = async () =>
      chainUnitsToLedger('XRP', (await node.accountInfo(account, 'validated'))?.balanceDrops ?? 0n);
    return {
      payer: new XrpPayer({ db, node, account, depositAccount: xrpDepositAccount() }),
      hotAddress: account,
      hotBalance: balance,
      // Every member's XRP address is the platform account (DECISIONS §17): it holds all of it.
      holdings: balance,
    };
  },
  TRX: (url, config, db) => {
    const node = trxWriter(url, {
      timeoutMs: config.chainWatch.timeoutMs,
      apiKey: config.chainWatch.trxApiKey,
    });
    const payer = new TrxPayer({
      db,
      node,
      account: chainKeys().accounts.TRX,
      confirmations: config.chainWatch.confirmations.TRX,
    });
    const hot = hotAddress('TRX');
    const ledger = (sun: bigint) => chainUnitsToLedger('TRX', sun);
    return {
      payer,
      housekeeping: trxSweeps({ node, hotAddress: hot }),
      hotAddress: hot,
      hotBalance: async () => ledger(await node.balance(hot)),
      holdings: async (deposits) => ledger(await sumBalances([hot, ...deposits], (a) => node.balance(a))),
    };
  },
};
