import type { BtcIntent } from '@p2p/signer-protocol';
import { base64, hex } from '@scure/base';
import type { HDKey } from '@scure/bip32';
import { Address, OutScript, p2wpkh, Transaction } from '@scure/btc-signer';
import { btcNetwork, type SignerKeys } from '../keys.ts';
import { IntentError, type Output, type SignedTx } from './types.ts';

const HARDENED = 0x80000000;

/** "m/84'/1'/0'" as BIP-32 indices. */
function pathIndices(path: string): number[] {
  return path
    .split('/')
    .slice(1)
    .map((p) => (p.endsWith("'") ? Number(p.slice(0, -1)) + HARDENED : Number(p)));
}

type Derivation = [Uint8Array, { fingerprint: number; path: number[] }][] | undefined;

/**
 * The signer's own child key named by a PSBT bip32Derivation, or null: the fingerprint must be the seed's, the
 * path the BTC account path followed by c/i (c 0 or 1), and the derived public key the one written.
 */
function ownKey(keys: SignerKeys, derivation: Derivation): HDKey | null {
  const account = pathIndices(keys.accountPath.BTC);
  for (const [pubkey, { fingerprint, path }] of derivation ?? []) {
    if (fingerprint !== keys.fingerprint || path.length !== account.length + 2) continue;
    if (account.some((p, i) => path[i] !== p)) continue;
    const [change = -1, index = -1] = path.slice(account.length);
    if ((change !== 0 && change !== 1) || index < 0 || index >= HARDENED) continue;
    const child = keys.accounts.BTC.deriveChild(change).deriveChild(index);
    if (child.publicKey && hex.encode(child.publicKey) === hex.encode(pubkey)) return child;
  }
  return null;
}

/** True when `script` is the P2WPKH script of `key` (the only kind of address the signer hands out). */
function paysTo(key: HDKey, script: Uint8Array | undefined, keys: SignerKeys): boolean {
  if (!key.publicKey || !script) return false;
  return hex.encode(p2wpkh(key.publicKey, btcNetwork(keys.network)).script) === hex.encode(script);
}

function signInputs(keys: SignerKeys, tx: Transaction): void {
  if (tx.inputsLength === 0) throw new IntentError('the PSBT has no inputs');
  for (let i = 0; i < tx.inputsLength; i++) {
    const input = tx.getInput(i);
    if (!input.witnessUtxo) throw new IntentError(`input ${i} has no witnessUtxo`);
    const key = ownKey(keys, input.bip32Derivation as Derivation);
    if (!key?.privateKey || !paysTo(key, input.witnessUtxo.script, keys)) {
      throw new IntentError(`input ${i} is not one of the signer's P2WPKH outputs (bip32Derivation)`);
    }
    tx.signIdx(key.privateKey, i);
  }
}

function readOutputs(keys: SignerKeys, tx: Transaction): Output[] {
  const outputs: Output[] = [];
  for (let i = 0; i < tx.outputsLength; i++) {
    const out = tx.getOutput(i);
    if (!out.script || out.amount === undefined) throw new IntentError(`output ${i} is incomplete`);
    const key = ownKey(keys, out.bip32Derivation as Derivation);
    let address: string | null = null;
    try {
      address = Address(btcNetwork(keys.network)).encode(OutScript.decode(out.script));
    } catch {
      address = null;
    }
    outputs.push({ address, units: out.amount, own: key !== null && paysTo(key, out.script, keys) });
  }
  return outputs;
}

/**
 * Signs a PSBT (@scure/btc-signer): every input must be one of the signer's own P2WPKH outputs, named by its
 * bip32Derivation (fingerprint and path of this seed) and carrying its witnessUtxo (the amount the segwit
 * signature commits to). Outputs whose bip32Derivation derives from this seed to their script are the signer's
 * own (change). Finalizes and extracts: signedTx = raw transaction hex.
 */
export function signBtc(keys: SignerKeys, intent: BtcIntent): SignedTx {
  let tx: Transaction;
  try {
    tx = Transaction.fromPSBT(base64.decode(intent.psbt));
  } catch (err) {
    throw new IntentError(`not a PSBT: ${(err as Error).message}`);
  }
  signInputs(keys, tx);
  const outputs = readOutputs(keys, tx);
  const feeUnits = tx.fee;
  if (feeUnits < 0n) throw new IntentError('outputs exceed inputs');
  tx.finalize();
  return { txid: tx.id, signedTx: hex.encode(tx.extract()), outputs, feeUnits };
}
