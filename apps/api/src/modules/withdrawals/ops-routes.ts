import {
  idParam,
  opsCustody,
  opsPayoutOverview,
  opsWithdrawal,
  opsWithdrawalCompleteBody,
  opsWithdrawalPage,
  opsWithdrawalRejectBody,
  opsWithdrawalsQuery,
} from '@p2p/contract';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import type { OpsRouteFile, OpsRoutes } from '../../http/operator-api.ts';
import { custodyOverview } from './custody.ts';
import { payoutOverview } from './overview.ts';
import type { Payouts } from './payouts.ts';
import { approveWithdrawal, decideWithdrawal, listWithdrawals, retryWithdrawal } from './service.ts';

const params = z.object({ id: idParam });

/** The operator's withdrawal queue (DECISIONS §10, §18), under the operator API's guard. */
export function withdrawalOpsRoutes(deps: AppDeps, payouts: Payouts): OpsRouteFile {
  return (ops) => {
    readRoutes(ops, deps, payouts);
    payRoutes(ops, deps, payouts);
    decisionRoutes(ops, deps);
  };
}

function readRoutes(ops: OpsRoutes, { db, config }: AppDeps, payouts: Payouts): void {
  const explorer = config.withdrawals.explorerTxUrl;
  ops.get('/withdrawals', {
    doc: {
      operationId: 'opsListWithdrawals',
      summary: 'Lists external withdrawals by status, oldest first.',
    },
    querystring: opsWithdrawalsQuery,
    response: opsWithdrawalPage,
    handle: ({ query }) => listWithdrawals(db, explorer, query),
  });

  ops.get('/withdrawals/overview', {
    doc: {
      operationId: 'opsPayoutOverview',
      summary: 'Per coin: hot address and balance, cold address, liabilities and the queue counts.',
    },
    response: opsPayoutOverview,
    handle: () => payoutOverview(db, config, payouts),
  });

  ops.get('/chain/custody', {
    doc: {
      operationId: 'opsChainCustody',
      summary:
        'Per coin: hot addresses and balance (chain and ledger), cold address and balance, liabilities, cold share against COLD_SHARE_MIN_PCT, withdrawals waiting.',
    },
    response: opsCustody,
    handle: () => custodyOverview(db, config, payouts),
  });
}

function payRoutes(ops: OpsRoutes, { db, config }: AppDeps, payouts: Payouts): void {
  const explorer = config.withdrawals.explorerTxUrl;
  ops.post('/withdrawals/:id/approve', {
    doc: {
      operationId: 'opsApproveWithdrawal',
      summary: 'Approves a pending withdrawal; the payout worker signs and sends it.',
      errors: ['NOT_FOUND', 'INVALID_STATE'],
    },
    idempotent: true,
    params,
    response: opsWithdrawal,
    handle: ({ operatorId, params }) =>
      approveWithdrawal(db, { operatorId, id: params.id, payoutCoins: payouts.coins, explorer }),
  });

  ops.post('/withdrawals/:id/retry', {
    doc: {
      operationId: 'opsRetryWithdrawal',
      summary: 'Pays a failed withdrawal again by a replacement spending the same inputs or nonce.',
      errors: ['NOT_FOUND', 'INVALID_STATE'],
    },
    idempotent: true,
    params,
    response: opsWithdrawal,
    handle: ({ operatorId, params }) => retryWithdrawal(db, { operatorId, id: params.id, explorer }),
  });
}

function decisionRoutes(ops: OpsRoutes, { db, config }: AppDeps): void {
  const explorer = config.withdrawals.explorerTxUrl;
  ops.post('/withdrawals/:id/complete', {
    doc: {
      operationId: 'opsCompleteWithdrawal',
      summary: 'Marks a pending withdrawal sent on chain by hand with its TxID (coins without a node).',
      errors: ['NOT_FOUND', 'INVALID_STATE'],
    },
    idempotent: true,
    params,
    body: opsWithdrawalCompleteBody,
    response: opsWithdrawal,
    handle: ({ operatorId, params, body }) =>
      decideWithdrawal(db, {
        operatorId,
        id: params.id,
        decision: { kind: 'complete', txid: body.txid },
        explorer,
      }),
  });

  ops.post('/withdrawals/:id/reject', {
    doc: {
      operationId: 'opsRejectWithdrawal',
      summary: 'Rejects a pending, unsent approved or failed withdrawal and returns the amount and fee.',
      errors: ['NOT_FOUND', 'INVALID_STATE'],
    },
    idempotent: true,
    params,
    body: opsWithdrawalRejectBody,
    response: opsWithdrawal,
    handle: ({ operatorId, params, body }) =>
      decideWithdrawal(db, {
        operatorId,
        id: params.id,
        decision: { kind: 'reject', reason: body.reason },
        explorer,
      }),
  });
}
