import type { Coin } from '@p2p/contract';
import type { ChainAdapter, ChainNetwork } from './adapter.ts';
import { btc } from './btc.ts';
import { eth } from './eth.ts';
import { trx } from './trx.ts';
import { xrp } from './xrp.ts';

/**
 * One chain adapter per coin of the contract's COIN_SPECS: a coin without an adapter does not
 * compile, and registry.test.ts runs each adapter on its vectors (chains/vectors/<coin>.json).
 */
export const CHAIN_ADAPTERS: Record<Coin, ChainAdapter> = { BTC: btc, ETH: eth, XRP: xrp, TRX: trx };

/** The adapter of `coin`. */
export function chainAdapter(coin: Coin): ChainAdapter {
  return CHAIN_ADAPTERS[coin];
}

/**
 * True when `address` is a valid address of `coin` on `network`, its checksum included (DECISIONS §5):
 * BTC bech32/bech32m segwit or base58check P2PKH/P2SH, ETH EIP-55, TRX base58check 'T...', XRP classic
 * 'r...'. ETH, TRX and XRP addresses are the same on mainnet and testnet.
 */
export function isValidAddress(coin: Coin, address: string, network: ChainNetwork): boolean {
  return CHAIN_ADAPTERS[coin].isValidAddress(address, network);
}

/**
 * The canonical form of a valid address, so that two spellings of one address compare equal: ETH in its
 * EIP-55 form, segwit BTC in lower case; the others are case-sensitive and stay as given.
 */
export function normalizeAddress(coin: Coin, address: string): string {
  return CHAIN_ADAPTERS[coin].normalizeAddress(address);
}
