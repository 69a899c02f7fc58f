import type { SignRequest } from '@p2p/signer-protocol';
import type { SignerKeys } from '../keys.ts';
import { signBtc } from './btc.ts';
import { signEth } from './eth.ts';
import { signTrx } from './trx.ts';
import type { SignedTx } from './types.ts';
import { signXrp } from './xrp.ts';

export { IntentError, type Output, type SignedTx } from './types.ts';

/** Signs one intent with the chain's library (DECISIONS §18). Throws IntentError for an unsignable intent. */
export async function signIntent(keys: SignerKeys, req: SignRequest): Promise<SignedTx> {
  switch (req.coin) {
    case 'BTC':
      return signBtc(keys, req.intent);
    case 'ETH':
      return signEth(keys, req.intent);
    case 'XRP':
      return signXrp(keys, req.intent);
    case 'TRX':
      return signTrx(keys, req.intent);
  }
}
