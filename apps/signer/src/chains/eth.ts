import type { EthIntent } from '@p2p/signer-protocol';
import { getAddress, keccak256 } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { childKey, privateHex, type SignerKeys } from '../keys.ts';
import { IntentError, type SignedTx } from './types.ts';

/**
 * Signs an EIP-1559 value transfer (viem) from the account's child `fromPath`. txid = keccak-256 of the
 * serialized transaction; the fee reported is its most, gas * maxFeePerGas.
 */
export async function signEth(keys: SignerKeys, intent: EthIntent): Promise<SignedTx> {
  const value = BigInt(intent.valueWei);
  const gas = BigInt(intent.gas);
  const maxFeePerGas = BigInt(intent.maxFeePerGas);
  const maxPriorityFeePerGas = BigInt(intent.maxPriorityFeePerGas);
  if (gas < 21_000n) throw new IntentError('gas below 21000');
  if (maxPriorityFeePerGas > maxFeePerGas) throw new IntentError('maxPriorityFeePerGas above maxFeePerGas');
  const account = privateKeyToAccount(privateHex(childKey(keys, 'ETH', intent.fromPath)));
  const signedTx = await account.signTransaction({
    type: 'eip1559',
    chainId: intent.chainId,
    nonce: intent.nonce,
    to: getAddress(intent.to.toLowerCase()),
    value,
    gas,
    maxFeePerGas,
    maxPriorityFeePerGas,
  });
  return {
    txid: keccak256(signedTx),
    signedTx,
    outputs: [{ address: getAddress(intent.to.toLowerCase()), units: value }],
    feeUnits: gas * maxFeePerGas,
  };
}
