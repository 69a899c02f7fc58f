import type { XrpIntent } from '@p2p/signer-protocol';
import { isValidClassicAddress, type Payment, Wallet } from 'xrpl';
import { addressOf, childKey, type SignerKeys } from '../keys.ts';
import { IntentError, type SignedTx } from './types.ts';

/** The xrpl Wallet of a child key (secp256k1; xrpl writes private keys as 00 + 32 bytes hex). */
export function xrpWallet(keys: SignerKeys, path: string): Wallet {
  const key = childKey(keys, 'XRP', path);
  const hex = (b: Uint8Array | null) =>
    Buffer.from(b ?? [])
      .toString('hex')
      .toUpperCase();
  const wallet = new Wallet(hex(key.publicKey), `00${hex(key.privateKey)}`);
  if (wallet.classicAddress !== addressOf(keys, 'XRP', key)) throw new Error('xrpl derived another address');
  return wallet;
}

/** Signs an XRP Payment of drops (xrpl): signedTx = tx_blob hex, txid = its hash. */
export function signXrp(keys: SignerKeys, intent: XrpIntent): SignedTx {
  if (!isValidClassicAddress(intent.destination))
    throw new IntentError('destination is not a classic address');
  if (BigInt(intent.amountDrops) === 0n) throw new IntentError('amountDrops must be above 0');
  const wallet = xrpWallet(keys, intent.fromPath);
  const tx: Payment = {
    TransactionType: 'Payment',
    Account: wallet.classicAddress,
    Destination: intent.destination,
    Amount: intent.amountDrops,
    Fee: intent.feeDrops,
    Sequence: intent.sequence,
    LastLedgerSequence: intent.lastLedgerSequence,
    Flags: 0,
    ...(intent.destinationTag === undefined ? {} : { DestinationTag: intent.destinationTag }),
  };
  const signed = wallet.sign(tx);
  return {
    txid: signed.hash,
    signedTx: signed.tx_blob,
    outputs: [{ address: intent.destination, units: BigInt(intent.amountDrops) }],
    feeUnits: BigInt(intent.feeDrops),
  };
}
