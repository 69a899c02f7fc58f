import { reserveDeclareBody, reserveSnapshotBody, reserveSnapshotResult, reservesList } from '@p2p/contract';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import type { OpsRouteFile } from '../../http/operator-api.ts';
import { latestReserves } from './queries.ts';
import { declareReserves } from './repo-declarations.ts';
import type { ReservesReader } from './repo-snapshot.ts';
import { snapshotNow } from './service.ts';

/**
 * The operator's proof-of-reserves calls (DECISIONS §20): a snapshot now (one coin or all), the declared figure
 * for a coin no node reads, and the newest snapshots. Audited.
 */
export function reservesOpsRoutes({ db }: AppDeps, read: ReservesReader): OpsRouteFile {
  return (ops) => {
    ops.post('/reserves/snapshot', {
      doc: {
        operationId: 'opsTakeReservesSnapshot',
        summary:
          'Takes a proof-of-reserves snapshot of one coin (or every coin) now, from the ledger at one instant.',
        errors: ['INVALID_STATE'],
      },
      body: reserveSnapshotBody,
      response: reserveSnapshotResult,
      handle: ({ operatorId, body }) => snapshotNow(db, read, operatorId, body.coinCode),
    });

    ops.post('/reserves/declare', {
      doc: {
        operationId: 'opsDeclareReserves',
        summary:
          'Sets the declared reserves of a coin whose addresses no node here reads (shown as declared).',
      },
      idempotent: true,
      body: reserveDeclareBody,
      response: z.null(),
      handle: async ({ operatorId, body }) => {
        await declareReserves(db, operatorId, body.coinCode, body.amount);
        return null;
      },
    });

    ops.get('/reserves', {
      doc: { operationId: 'opsGetReserves', summary: "Each coin's newest proof-of-reserves snapshot." },
      response: reservesList,
      handle: () => latestReserves(db),
    });
  };
}
