import { ERROR_STATUS, type ErrorCode } from '@p2p/contract';

/**
 * The one error type services throw (DECISIONS §2), with a stable code of the contract's catalogue and the
 * HTTP status the catalogue gives it. It lives below every layer (ledger, db, modules, http) so that the
 * ledger and the database helpers can refuse without importing the transport; the error handler
 * (`http/error-handler.ts`) turns it into the envelope `{returnCode: status, returnMessage: code, returnData}`.
 */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly data: Record<string, unknown> | null = null,
  ) {
    super(code);
    this.status = ERROR_STATUS[code];
  }
}

/** A VALIDATION_FAILED error naming the offending fields and their field codes. */
export function fieldError(fields: Record<string, string>): AppError {
  return new AppError('VALIDATION_FAILED', { fields });
}
