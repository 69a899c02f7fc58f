import {
  idParam,
  opsDeposit,
  opsDepositBody,
  opsWithdrawal,
  opsWithdrawalCompleteBody,
  opsWithdrawalPage,
  opsWithdrawalRejectBody,
  opsWithdrawalsQuery,
} from '@p2p/contract';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import type { OpsRouteFile } from '../../http/operator-api.ts';
import { decideWithdrawal, listWithdrawals, opsCreditDeposit } from './withdrawals.ts';

const params = z.object({ id: idParam });

/** Operator calls on deposits and withdrawals (DECISIONS §10), under the operator API's guard. */
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

    ops.get('/withdrawals', {
      doc: {
        operationId: 'opsListWithdrawals',
        summary: 'Lists external withdrawals by status, oldest first.',
      },
      querystring: opsWithdrawalsQuery,
      response: opsWithdrawalPage,
      handle: ({ query }) => listWithdrawals(db, query),
    });

    ops.post('/withdrawals/:id/complete', {
      doc: {
        operationId: 'opsCompleteWithdrawal',
        summary: 'Marks a pending withdrawal sent on chain with its TxID.',
        errors: ['NOT_FOUND', 'INVALID_STATE'],
      },
      idempotent: true,
      params,
      body: opsWithdrawalCompleteBody,
      response: opsWithdrawal,
      handle: ({ operatorId, params, body }) =>
        decideWithdrawal(db, operatorId, params.id, { kind: 'complete', txid: body.txid }),
    });

    ops.post('/withdrawals/:id/reject', {
      doc: {
        operationId: 'opsRejectWithdrawal',
        summary: 'Rejects a pending withdrawal and returns the amount and fee to the member.',
        errors: ['NOT_FOUND', 'INVALID_STATE'],
      },
      idempotent: true,
      params,
      body: opsWithdrawalRejectBody,
      response: opsWithdrawal,
      handle: ({ operatorId, params, body }) =>
        decideWithdrawal(db, operatorId, params.id, { kind: 'reject', reason: body.reason }),
    });
  };
}
