import { sha256 } from '@noble/hashes/sha2.js';
import { COIN_SPECS } from '@p2p/contract';
import { type AccountsResponse, SIGNER_COINS, type SignerCoin } from '@p2p/signer-protocol';
import { createBase58check } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { NETWORK, p2wpkh, TEST_NETWORK } from '@scure/btc-signer';
import { deriveAddress as xrpAddress } from 'ripple-keypairs';
import { bytesToHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { ChainNetwork } from './config.ts';

/** Bitcoin Core's regtest: testnet's base58 versions and its own bech32 prefix (as apps/api/src/chains/btc.ts). */
const REGTEST: typeof NETWORK = { ...TEST_NETWORK, bech32: 'bcrt' };
/** Base58check with double SHA-256 (TRON addresses). */
const base58check = createBase58check(sha256);
const TPUB = { public: 0x043587cf, private: 0x04358394 };

/** The @scure/btc-signer network of CHAIN_NETWORK. */
export function btcNetwork(network: ChainNetwork): typeof NETWORK {
  return network === 'mainnet' ? NETWORK : network === 'testnet' ? TEST_NETWORK : REGTEST;
}

/** The signer's keys: one BIP-32 account per coin at the contract's account path (DECISIONS §5). */
export interface SignerKeys {
  network: ChainNetwork;
  /** BIP-32 fingerprint of the master key (what a PSBT's bip32Derivation names). */
  fingerprint: number;
  /** Absolute account path per coin ("m/84'/1'/0'"). */
  accountPath: Record<SignerCoin, string>;
  accounts: Record<SignerCoin, HDKey>;
}

/** The account path of `coin` on `network`: regtest follows testnet's coin type (as the API's chains/define.ts). */
export function accountPath(coin: SignerCoin, network: ChainNetwork): string {
  return COIN_SPECS[coin].accountPath[network === 'mainnet' ? 'mainnet' : 'testnet'];
}

/** Derives every coin's account key from `seed` (private keys stay in this process). */
export function deriveKeys(seed: Uint8Array, network: ChainNetwork): SignerKeys {
  const root = HDKey.fromMasterSeed(seed, network === 'mainnet' ? undefined : TPUB);
  const accounts = {} as Record<SignerCoin, HDKey>;
  const paths = {} as Record<SignerCoin, string>;
  for (const coin of SIGNER_COINS) {
    paths[coin] = accountPath(coin, network);
    accounts[coin] = root.derive(paths[coin]);
  }
  return { network, fingerprint: root.fingerprint, accountPath: paths, accounts };
}

/** The child key at "c/i" of the coin's account. */
export function childKey(keys: SignerKeys, coin: SignerCoin, path: string): HDKey {
  const [change, index] = path.split('/').map(Number);
  const child = keys.accounts[coin].deriveChild(change ?? 0).deriveChild(index ?? 0);
  if (!child.privateKey || !child.publicKey) throw new Error('derived key has no private key');
  return child;
}

/** The 0x-hex private key of a child (for viem and xrpl, which take hex). */
export function privateHex(key: HDKey): `0x${string}` {
  if (!key.privateKey) throw new Error('no private key');
  return bytesToHex(key.privateKey);
}

/** The address of a child key on its chain, in the same format the API's chain adapters derive. */
export function addressOf(keys: SignerKeys, coin: SignerCoin, key: HDKey): string {
  const pub = key.publicKey;
  if (!pub) throw new Error('no public key');
  switch (coin) {
    case 'BTC': {
      const address = p2wpkh(pub, btcNetwork(keys.network)).address;
      if (!address) throw new Error('p2wpkh gave no address');
      return address;
    }
    case 'ETH':
      return privateKeyToAccount(privateHex(key)).address;
    case 'XRP':
      return xrpAddress(Buffer.from(pub).toString('hex').toUpperCase());
    case 'TRX':
      return tronAddress(privateKeyToAccount(privateHex(key)).address);
  }
}

/** The TRON base58 address of a 20-byte account id given as an Ethereum address. */
export function tronAddress(ethAddress: string): string {
  return base58check.encode(Uint8Array.from([0x41, ...Buffer.from(ethAddress.slice(2), 'hex')]));
}

/** The address at "c/i" of `coin`. */
export function addressAt(keys: SignerKeys, coin: SignerCoin, path: string): string {
  return addressOf(keys, coin, childKey(keys, coin, path));
}

/** The hot address: child 1/0 (DECISIONS §18); BTC has none (its change spreads over 1/n). */
export function hotAddress(keys: SignerKeys, coin: SignerCoin): string | null {
  return coin === 'BTC' ? null : addressAt(keys, coin, '1/0');
}

/** GET /v1/accounts: the account-level public keys and hot addresses. Public data only. */
export function publicAccounts(keys: SignerKeys): AccountsResponse {
  return {
    network: keys.network,
    accounts: SIGNER_COINS.map((coin) => ({
      coin,
      xpub: keys.accounts[coin].publicExtendedKey,
      hotAddress: hotAddress(keys, coin),
      ...(coin === 'XRP' ? { xrpAccount: addressAt(keys, 'XRP', '0/0') } : {}),
    })),
  };
}
