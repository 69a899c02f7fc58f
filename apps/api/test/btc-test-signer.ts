import { secp256k1 } from '@noble/curves/secp256k1.js';
import { HDKey } from '@scure/bip32';
import { type HDSigner, Psbt, type Transaction } from 'bitcoinjs-lib';
import { btc } from '../src/chains/btc.ts';
import { bitcoinjsNetwork } from '../src/modules/withdrawals/index.ts';

/**
 * Test-only: a BTC key tree from a fixed seed, the watch-only account key the API gets from it (XPUB_BTC), and
 * a PSBT signer standing in for apps/signer in the payer's tests (bitcoinjs-lib's signInputHD, which checks the
 * PSBT's bip32Derivation against the master fingerprint and the derived public key, as a real signer does).
 */

/** BIP-84 testnet/regtest account path (COIN_SPECS BTC testnet). */
export const BTC_TEST_ACCOUNT_PATH = "m/84'/1'/0'";

export interface TestBtcKeys {
  root: HDKey;
  account: HDKey;
  xpub: string;
  masterFingerprint: Uint8Array;
}

/** The key tree of `seed` (32 bytes). */
export function testBtcKeys(seed: Uint8Array): TestBtcKeys {
  const root = HDKey.fromMasterSeed(seed);
  const accountPrivate = root.derive(BTC_TEST_ACCOUNT_PATH);
  const account = HDKey.fromExtendedKey(accountPrivate.publicExtendedKey);
  const fp = new Uint8Array(4);
  new DataView(fp.buffer).setUint32(0, root.fingerprint);
  return { root, account, xpub: accountPrivate.publicExtendedKey, masterFingerprint: fp };
}

function hdSigner(key: HDKey, root: HDKey, fingerprint: Uint8Array): HDSigner {
  if (!key.publicKey) throw new Error('no public key');
  return {
    publicKey: key.publicKey,
    fingerprint,
    derivePath: (path) => hdSigner(root.derive(path), root, fingerprint),
    sign: (hash) => {
      if (!key.privateKey) throw new Error('no private key');
      return secp256k1.sign(hash, key.privateKey, { prehash: false, format: 'compact' });
    },
  };
}

/** Signs every input of a base64 PSBT for regtest; returns the raw transaction hex and its txid. */
export function signPsbt(
  keys: TestBtcKeys,
  psbtBase64: string,
): { signedTx: string; txid: string; tx: Transaction } {
  const psbt = Psbt.fromBase64(psbtBase64, { network: bitcoinjsNetwork('regtest') });
  const signer = hdSigner(keys.root, keys.root, keys.masterFingerprint);
  for (let i = 0; i < psbt.inputCount; i++) psbt.signInputHD(i, signer);
  psbt.finalizeAllInputs();
  const tx = psbt.extractTransaction();
  return { signedTx: tx.toHex(), txid: tx.getId(), tx };
}

/** A fresh regtest P2WPKH address nobody else pays (a recipient). */
export function randomRecipient(): string {
  return btc.addressFromPublicKey(secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true), 'regtest');
}
