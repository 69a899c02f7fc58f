import type { TrxIntent } from '@p2p/signer-protocol';
import { addressOf, childKey, type SignerKeys } from '../keys.ts';
import { IntentError, type SignedTx } from './types.ts';

const TRANSFER_TYPE_URL = 'type.googleapis.com/protocol.TransferContract';

/** tronweb is large (ethers inside): loaded on the first TRX signature, not at start. */
type TronUtils = typeof import('tronweb')['utils'];
let tronUtils: TronUtils | undefined;
async function loadTron(): Promise<TronUtils> {
  tronUtils ??= (await import('tronweb')).utils;
  return tronUtils;
}

/** The 21-byte hex form (41...) of a base58 TRON address; throws IntentError when the checksum fails. */
function tronHex(tron: TronUtils, address: string): string {
  const bytes = tron.crypto.decode58Check(address);
  if (bytes === false || bytes.length !== 21 || bytes[0] !== 0x41)
    throw new IntentError(`not a TRON address: ${address}`);
  return Buffer.from(bytes).toString('hex');
}

/**
 * Signs a TRX TransferContract. The raw_data protobuf is encoded by tronweb's own Tron.proto code
 * (txJsonToPb), txID = sha256(raw_data bytes), signature = secp256k1 over txID, r || s || v (v = 27 + recovery)
 * as java-tron checks it. signedTx = JSON `{txID, raw_data, raw_data_hex, signature: [hex], visible: false}`:
 * what /wallet/broadcasttransaction takes. The network fee is bandwidth paid by the sender's account: 0 here.
 */
export async function signTrx(keys: SignerKeys, intent: TrxIntent): Promise<SignedTx> {
  const tron = await loadTron();
  const amount = BigInt(intent.amountSun);
  if (amount === 0n || amount > BigInt(Number.MAX_SAFE_INTEGER))
    throw new IntentError('amountSun out of range');
  if (intent.expiration <= intent.timestamp) throw new IntentError('expiration must be after timestamp');
  const key = childKey(keys, 'TRX', intent.fromPath);
  const raw_data = {
    contract: [
      {
        parameter: {
          value: {
            amount: Number(amount),
            owner_address: tronHex(tron, addressOf(keys, 'TRX', key)),
            to_address: tronHex(tron, intent.to),
          },
          type_url: TRANSFER_TYPE_URL,
        },
        type: 'TransferContract',
      },
    ],
    ref_block_bytes: intent.refBlockBytes,
    ref_block_hash: intent.refBlockHash,
    expiration: intent.expiration,
    timestamp: intent.timestamp,
  };
  const pb = tron.transaction.txJsonToPb({ raw_data });
  const txID = tron.transaction.txPbToTxID(pb).replace(/^0x/, '');
  const raw_data_hex = tron.transaction.txPbToRawDataHex(pb).toLowerCase();
  const signature = tron.crypto.ECKeySign(Buffer.from(txID, 'hex'), key.privateKey ?? new Uint8Array());
  const signedTx = JSON.stringify({ txID, raw_data, raw_data_hex, signature: [signature], visible: false });
  return { txid: txID, signedTx, outputs: [{ address: intent.to, units: amount }], feeUnits: 0n };
}
