import { createHash } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { type Hex, keccak256 } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { AppError } from '../src/errors/index.ts';
import type { PayoutSigner, SignRequest, SignResult } from '../src/modules/withdrawals/index.ts';

/*
 * A stand-in for apps/signer while it is built beside this branch: the same `sign` answers (SIGNER-PROTOCOL
 * `POST /v1/sign` for ETH), the same journal rule (one signature per requestId, a repeat answers the first,
 * another intent is SIGNER_REQUEST_REUSED) and a per-transaction limit, from a public TEST seed whose account key
 * the API gets as XPUB_ETH. Replaced by test/signer.ts startSigner() once the signer is merged.
 */

const SEED = createHash('sha256')
  .update('p2p withdrawal tests: a public seed, never for real coins')
  .digest();
const ROOT = HDKey.fromMasterSeed(SEED);
const ETH_ACCOUNT = ROOT.derive("m/44'/60'/0'");

/** XPUB_ETH of the TEST seed. */
export const TEST_XPUB_ETH = HDKey.fromExtendedKey(ETH_ACCOUNT.publicExtendedKey).publicExtendedKey;

export interface InterimSigner extends PayoutSigner {
  /** Signatures made (not repeats). */
  readonly signed: number;
  /** While true, every call fails as a signer that does not answer (SIGNER_UNAVAILABLE). */
  down: boolean;
}

/** The stand-in signer; `maxTxWei` is its per-transaction limit (SIGNER_LIMIT_TX above it). */
export function interimSigner(opts: { maxTxWei?: bigint } = {}): InterimSigner {
  const journal = new Map<string, { intent: string; result: SignResult }>();
  const state = { signed: 0, down: false };
  return {
    get signed() {
      return state.signed;
    },
    get down() {
      return state.down;
    },
    set down(v: boolean) {
      state.down = v;
    },
    async sign(req: SignRequest): Promise<SignResult> {
      if (state.down) throw new AppError('SIGNER_UNAVAILABLE' as never);
      const intent = JSON.stringify(req.intent);
      const seen = journal.get(req.requestId);
      if (seen) {
        if (seen.intent !== intent) throw new AppError('SIGNER_REQUEST_REUSED' as never);
        return seen.result;
      }
      const i = req.intent as Record<string, string | number>;
      const value = BigInt(String(i.valueWei));
      if (req.purpose === 'WITHDRAWAL' && opts.maxTxWei !== undefined && value > opts.maxTxWei) {
        throw new AppError('SIGNER_LIMIT_TX' as never, { limit: String(opts.maxTxWei) });
      }
      const [branch, index] = String(i.fromPath).split('/').map(Number);
      const key = ETH_ACCOUNT.deriveChild(branch ?? 0).deriveChild(index ?? 0);
      if (!key.privateKey) throw new Error('no private key');
      const account = privateKeyToAccount(`0x${Buffer.from(key.privateKey).toString('hex')}` as Hex);
      const signedTx = await account.signTransaction({
        type: 'eip1559',
        chainId: Number(i.chainId),
        nonce: Number(i.nonce),
        to: String(i.to) as Hex,
        value,
        gas: BigInt(String(i.gas)),
        maxFeePerGas: BigInt(String(i.maxFeePerGas)),
        maxPriorityFeePerGas: BigInt(String(i.maxPriorityFeePerGas)),
      });
      const result: SignResult = {
        requestId: req.requestId,
        coin: req.coin,
        txid: keccak256(signedTx),
        signedTx,
        amount: '0',
        fee: '0',
      };
      journal.set(req.requestId, { intent, result });
      state.signed++;
      return result;
    },
  };
}
