/*
 * The operators module's front door: operator accounts (start-up and CLI), the console's TOTP enrollment and
 * reset, and its part of the operator API (members, audit log, ledger check, summary). Other modules import
 * only this file.
 */

export { LEDGER_CHECK_JOB, startLedgerCheckJob } from './ledger-check-job.ts';
export { ensureOperator } from './operators.ts';
export { operatorOpsRoutes } from './ops-routes.ts';
export { resetTotp } from './totp.ts';
