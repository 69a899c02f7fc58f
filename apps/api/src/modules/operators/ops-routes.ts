import {
  idParam,
  opsAuditEntry,
  opsAuditQuery,
  opsLedgerCheck,
  opsMember,
  opsMemberDetail,
  opsMembersQuery,
  opsSummary as opsSummarySchema,
  opsSuspendBody,
  opsTotpConfirmBody,
  opsTotpEnrollment,
  opsTotpStatus,
  opsUnsuspendBody,
  pageOf,
} from '@p2p/contract';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import type { OpsRouteFile, OpsRoutes } from '../../http/operator-api.ts';
import { requestFullCheck, storedLedgerCheck } from '../../ledger/index.ts';
import { suspendMember, unsuspendMember } from './members.ts';
import { listAuditLog, listMembers, memberDetail, opsSummary } from './queries.ts';
import { confirmTotp, enrollTotp, totpStatus } from './totp.ts';

const params = z.object({ id: idParam });

/** Members: search, detail, suspend and lift a suspension (audited). */
function memberRoutes(ops: OpsRoutes, { db }: AppDeps): void {
  ops.get('/members', {
    doc: {
      operationId: 'opsSearchMembers',
      summary: 'Searches members by login ID, nickname, name or phone.',
    },
    querystring: opsMembersQuery,
    response: pageOf(opsMember),
    handle: ({ query }) => listMembers(db, query),
  });

  ops.get('/members/:id', {
    doc: {
      operationId: 'opsGetMember',
      summary: 'One member with bank details, wallets and balances, and live listing and order counts.',
      errors: ['NOT_FOUND_MEMBER_ID'],
    },
    params,
    response: opsMemberDetail,
    handle: ({ params }) => memberDetail(db, params.id),
  });

  ops.post('/members/:id/suspend', {
    doc: {
      operationId: 'opsSuspendMember',
      summary: 'Suspends a member with a reason and ends their sessions (audited).',
      errors: ['NOT_FOUND_MEMBER_ID', 'INVALID_STATE'],
    },
    params,
    body: opsSuspendBody,
    response: opsMember,
    handle: ({ operatorId, params, body }) => suspendMember(db, operatorId, params.id, body.reason),
  });

  ops.post('/members/:id/unsuspend', {
    doc: {
      operationId: 'opsUnsuspendMember',
      summary: 'Lifts a suspension (audited).',
      errors: ['NOT_FOUND_MEMBER_ID', 'INVALID_STATE'],
    },
    params,
    body: opsUnsuspendBody,
    response: opsMember,
    handle: ({ operatorId, params, body }) => unsuspendMember(db, operatorId, params.id, body?.reason),
  });
}

/** The console's tools: the audit log, the ledger check and the overview counts. */
function consoleRoutes(ops: OpsRoutes, { db, chainChecks }: AppDeps): void {
  ops.get('/audit-log', {
    doc: { operationId: 'opsListAuditLog', summary: 'The audit log, newest first.' },
    querystring: opsAuditQuery,
    response: pageOf(opsAuditEntry),
    handle: ({ query }) => listAuditLog(db, query),
  });

  // Issue 27: the stored result of the ledger check job (one row), never a scan of the postings; the chain
  // comparison asks the nodes live (one call per coin).
  const answer = async () => ({
    ...(await storedLedgerCheck(db)),
    chains: await Promise.all(chainChecks.map((check) => check())),
  });
  ops.get('/ledger/check', {
    doc: {
      operationId: 'opsCheckLedger',
      summary: 'The last result of the ledger check job, its time and the full pass in progress.',
    },
    response: opsLedgerCheck,
    handle: answer,
  });

  ops.post('/ledger/check/full', {
    doc: {
      operationId: 'opsRequestFullLedgerCheck',
      summary: 'Asks for a full pass of the ledger check; the job starts it in the background.',
    },
    response: opsLedgerCheck,
    handle: async () => {
      await requestFullCheck(db);
      return answer();
    },
  });

  ops.get('/summary', {
    doc: {
      operationId: 'opsGetSummary',
      summary: 'Counts for the console overview: pending listings, withdrawals, disputes, members.',
    },
    response: opsSummarySchema,
    handle: () => opsSummary(db),
  });
}

/** The signed-in operator's own second factor (DECISIONS §13); resetting it is the CLI's job. */
function totpRoutes(ops: OpsRoutes, deps: AppDeps): void {
  const { db } = deps;
  ops.get('/totp', {
    doc: {
      operationId: 'opsGetTotp',
      summary: "Tells whether the operator's authenticator (TOTP) is enrolled and confirmed.",
    },
    response: opsTotpStatus,
    handle: ({ operatorId }) => totpStatus(db, operatorId),
  });

  ops.post('/totp/enroll', {
    doc: {
      operationId: 'opsEnrollTotp',
      summary: 'Starts TOTP enrollment: answers a new secret and its otpauth URI.',
      errors: ['TOTP_ALREADY_ENROLLED'],
    },
    response: opsTotpEnrollment,
    handle: ({ operatorId }) => enrollTotp(deps, operatorId),
  });

  ops.post('/totp/confirm', {
    doc: {
      operationId: 'opsConfirmTotp',
      summary: 'Confirms TOTP enrollment with a code from the authenticator app.',
      errors: ['TOTP_ALREADY_ENROLLED', 'TOTP_INVALID', 'INVALID_STATE'],
    },
    body: opsTotpConfirmBody,
    response: opsTotpStatus,
    handle: ({ operatorId, body }) => confirmTotp(deps, operatorId, body.code),
  });
}

/**
 * The operators module's part of the operator API (DECISIONS §8, §10), under its guard: members and their
 * suspension, the audit log, the ledger check, the console summary and the operator's TOTP.
 */
export function operatorOpsRoutes(deps: AppDeps): OpsRouteFile {
  return (ops) => {
    memberRoutes(ops, deps);
    consoleRoutes(ops, deps);
    totpRoutes(ops, deps);
  };
}
