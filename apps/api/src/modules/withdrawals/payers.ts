import type { Coin } from '@p2p/contract';
import type { HDKey } from '@scure/bip32';
import { address as bitcoinAddress } from 'bitcoinjs-lib';
import { btcWriter } from '../../chains/btc-writer.ts';
import { ethWriter } from '../../chains/eth-writer.ts';
import {
  CHAIN_ADAPTERS,
  type ChainNetwork,
  chainKeys,
  depositAddress,
  hotAddress,
  parseAccountKey,
  xrpDepositAccount,
} from '../../chains/index.ts';
import { trxWriter } from '../../chains/trx-writer.ts';
import { chainUnitsToLedger } from '../../chains/units.ts';
import { xrpWriter } from '../../chains/xrp-writer.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { BtcPayer } from './btc-payer.ts';
import { bitcoinjsNetwork } from './btc-select.ts';
import { ethPayer } from './eth-payer.ts';
import { ethSweeps } from './eth-sweeps.ts';
import type { ChainPayer } from './payer.ts';
import { btcCustodySource } from './repo-cold.ts';
import { unspentOutputs } from './repo-utxos.ts';
import type { PayoutSigner } from './signer.ts';
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

/**
 * Makes one coin's payout from its node URL (CHAIN_RPC_<COIN>), the configuration, the database and the signer
 * (null: no signer, nothing is paid on chain but the console still reads the balances).
 */
export type PayoutFactory = (url: string, config: Config, db: Db, signer: PayoutSigner | null) => CoinPayout;

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
 * The signer's master fingerprint for BTC PSBTs, from its GET /v1/accounts (the signer is the source of truth,
 * DECISIONS §18). Throws when there is no signer to ask, or when the signer's network or BTC account key is not
 * the one the API derives addresses from (XPUB_BTC): it would refuse every PSBT, better said once and plainly.
 */
export async function signerFingerprint(
  signer: PayoutSigner | null,
  account: HDKey,
  network: ChainNetwork,
): Promise<Uint8Array> {
  if (!signer?.accounts) throw new Error('BTC: no signer to ask for its master fingerprint');
  const answer = await signer.accounts();
  const btc = answer.accounts.find((a) => a.coin === 'BTC');
  if (answer.network !== network) throw new Error(`BTC: the signer is on ${answer.network}, not ${network}`);
  const same = (a?: Uint8Array | null, b?: Uint8Array | null) =>
    !!a && !!b && Buffer.from(a).equals(Buffer.from(b));
  const theirs = btc ? parseAccountKey(btc.xpub) : null;
  if (!theirs || !same(theirs.publicKey, account.publicKey) || !same(theirs.chainCode, account.chainCode)) {
    throw new Error("BTC: the signer's account key is not XPUB_BTC");
  }
  return Uint8Array.from(Buffer.from(answer.masterFingerprint, 'hex'));
}

/**
 * BTC (DECISIONS §18): withdrawals spend the platform's deposit and change outputs, so there is no hot address;
 * the hot balance is its confirmed unspent outputs on record, and what addresses hold on chain is one
 * scantxoutset of their output scripts (deposit addresses and the change addresses of unspent outputs).
 */
function btcPayout(url: string, config: Config, db: Db, signer: PayoutSigner | null): CoinPayout {
  const network = config.chain.network;
  const node = btcWriter(url, config.chainWatch.timeoutMs);
  const account = chainKeys().accounts.BTC;
  const onChain = async (addresses: Iterable<string>) => {
    const net = bitcoinjsNetwork(network);
    const scripts = [...new Set(addresses)].map((a) =>
      Buffer.from(bitcoinAddress.toOutputScript(a, net)).toString('hex'),
    );
    return chainUnitsToLedger('BTC', await node.scriptsBalance(scripts));
  };
  const payer = new BtcPayer({
    db,
    node,
    network,
    account,
    accountPath: CHAIN_ADAPTERS.BTC.accountPath(network),
    masterFingerprint: () => signerFingerprint(signer, account, network),
    fallbackFeeRate: config.withdrawals.btcFallbackFeeRate,
    confirmations: config.chainWatch.confirmations.BTC,
  });
  const records = btcCustodySource(db, (a) => onChain([a]));
  return {
    payer,
    hotAddress: null,
    hotBalance: () => records.hotBalance(),
    holdings: async (deposits) =>
      onChain([...deposits, ...(await unspentOutputs(db, 'BTC')).map((o) => o.address)]),
    balanceOf: (address) => onChain([address]),
  };
}

/**
 * The payout of each coin this build can pay on chain (DECISIONS §18). A coin missing here stays paid by hand
 * (the operator's `complete` with the txid, DECISIONS §5) even with a node.
 */
export const PAYOUT_FACTORIES: Partial<Record<Coin, PayoutFactory>> = {
  BTC: btcPayout,
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
    const balanceOf = async (address: string) =>
      chainUnitsToLedger('XRP', (await node.accountInfo(address, 'validated'))?.balanceDrops ?? 0n);
    const balance = () => balanceOf(account);
    return {
      payer: new XrpPayer({ db, node, account, depositAccount: xrpDepositAccount() }),
      hotAddress: account,
      hotBalance: balance,
      // Every member's XRP address is the platform account (DECISIONS §17): it holds all of it.
      holdings: balance,
      balanceOf,
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
      balanceOf: async (address) => ledger(await node.balance(address)),
    };
  },
};
