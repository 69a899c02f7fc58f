import type { Coin } from '@p2p/contract';
import { HDKey, type Versions } from '@scure/bip32';
import type { ChainNetwork } from './adapter.ts';
import { CHAIN_ADAPTERS } from './registry.ts';

/**
 * SLIP-132 version bytes of the account-level extended public keys we accept (xpub, ypub, zpub and their
 * testnet forms): a wallet exporting a BIP-84 account usually writes zpub/vpub, and the key inside is the
 * same. Private versions are given too because @scure/bip32 wants both; a private key is refused anyway.
 */
const VERSIONS: Record<string, Versions> = {
  xpub: { public: 0x0488b21e, private: 0x0488ade4 },
  ypub: { public: 0x049d7cb2, private: 0x049d7878 },
  zpub: { public: 0x04b24746, private: 0x04b2430c },
  tpub: { public: 0x043587cf, private: 0x04358394 },
  upub: { public: 0x044a5262, private: 0x044a4e28 },
  vpub: { public: 0x045f1cf6, private: 0x045f18bc },
};

/**
 * Parses a watch-only account key (xpub/ypub/zpub/tpub/upub/vpub, base58check). Throws a readable
 * Error for anything else, including extended private keys: no private key may live in the app
 * (DECISIONS §5).
 */
export function parseAccountKey(key: string): HDKey {
  const versions = VERSIONS[key.slice(0, 4)];
  if (!versions) throw new Error('not a watch-only extended public key (xpub, zpub, tpub, vpub...)');
  const hd = HDKey.fromExtendedKey(key, versions);
  if (hd.privateKey) throw new Error('an extended private key was given; only public keys are accepted');
  return hd;
}

/** The address of one compressed secp256k1 public key (33 bytes) on `coin` (its chain adapter). */
export function addressFromPublicKey(coin: Coin, publicKey: Uint8Array, network: ChainNetwork): string {
  return CHAIN_ADAPTERS[coin].addressFromPublicKey(publicKey, network);
}

/** Address of child `0/index` of the account key of `coin` (its chain adapter's depositAddress). */
export function deriveAddress(coin: Coin, account: HDKey, index: number, network: ChainNetwork): string {
  return CHAIN_ADAPTERS[coin].depositAddress(account, index, network);
}
