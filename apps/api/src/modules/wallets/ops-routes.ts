import { opsDeposit, opsDepositBody } from '@p2p/contract';
import type { AppDeps } from '../../deps.ts';
import type { OpsRouteFile } from '../../http/operator-api.ts';
import { opsCreditDeposit } from './ops-deposits.ts';

/**
 * The operator's deposit credit (DECISIONS §10), under the operator API's guard. The withdrawal queue's calls
 * are the withdrawals module's (modules/withdrawals/ops-routes.ts).
 */
export function walletOpsRoutes({ db }: AppDeps): OpsRouteFile {
  return (ops) => {
    ops.post('/deposits', {
      doc: {
        operationId: 'opsCreditDeposit',
        summary:
          'Credits an on-chain deposit to the wallet owning the address, once per coin, TxID and index.',
        errors: ['WALLET_NOT_FOUND', 'DUPLICATE_ENTRY', 'INVALID_ADDRESS', 'INVALID_STATE'],
      },
      idempotent: true,
      body: opsDepositBody,
      response: opsDeposit,
      handle: ({ operatorId, body }) =>
        opsCreditDeposit(db, operatorId, {
          coin: body.coinCode,
          address: body.address,
          amount: body.amount,
          txid: body.txid,
          index: body.index,
          destinationTag: body.destinationTag ?? null,
        }),
    });
  };
}
