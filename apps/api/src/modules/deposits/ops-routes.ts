import {
  chainStatusList,
  idParam,
  unmatchedAssignBody,
  unmatchedPayment,
  unmatchedPaymentPage,
  unmatchedQuery,
  unmatchedReturnBody,
} from '@p2p/contract';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import type { OpsRouteFile } from '../../http/operator-api.ts';
import { chainStatusOf, type DepositWatchers } from './service.ts';
import { assignUnmatched, listUnmatched, returnUnmatched } from './unmatched.ts';

const params = z.object({ id: idParam });

/**
 * The operator's chain calls (DECISIONS §17), under the operator API's guard: the watchers' status per coin and
 * the queue of payments that match no member (assign to a member, or record a return; both audit-logged and
 * idempotent).
 */
export function depositOpsRoutes({ db, config }: AppDeps, depositWatchers: DepositWatchers): OpsRouteFile {
  const required = config.chainWatch.confirmations;
  const watched = new Set(depositWatchers.watchers.keys());
  return (ops) => {
    ops.get('/chain/status', {
      doc: {
        operationId: 'opsGetChainStatus',
        summary:
          "Each coin's deposit watcher: scanned height against the node's, lag, last scan and last error.",
      },
      response: chainStatusList,
      handle: () => chainStatusOf(db, config, watched),
    });

    ops.get('/chain/unmatched', {
      doc: {
        operationId: 'opsListUnmatchedPayments',
        summary:
          'Lists payments to the platform that match no member (e.g. XRP without a known tag), oldest first.',
      },
      querystring: unmatchedQuery,
      response: unmatchedPaymentPage,
      handle: ({ query }) => listUnmatched(db, required, query),
    });

    ops.post('/chain/unmatched/:id/assign', {
      doc: {
        operationId: 'opsAssignUnmatchedPayment',
        summary: "Credits an unmatched payment to a member's wallet of its coin, once (audited).",
        errors: ['NOT_FOUND', 'INVALID_STATE', 'WALLET_NOT_FOUND', 'DUPLICATE_ENTRY'],
      },
      idempotent: true,
      params,
      body: unmatchedAssignBody,
      response: unmatchedPayment,
      handle: ({ operatorId, params, body }) => assignUnmatched(db, required, operatorId, params.id, body),
    });

    ops.post('/chain/unmatched/:id/return', {
      doc: {
        operationId: 'opsReturnUnmatchedPayment',
        summary:
          'Records that an unmatched payment was sent back to its sender (audited; nothing is credited).',
        errors: ['NOT_FOUND', 'INVALID_STATE'],
      },
      idempotent: true,
      params,
      body: unmatchedReturnBody,
      response: unmatchedPayment,
      handle: ({ operatorId, params, body }) => returnUnmatched(db, required, operatorId, params.id, body),
    });
  };
}
