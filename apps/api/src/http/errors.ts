import { ERROR_STATUS, type ErrorCode } from '@p2p/contract';

/**
 * The one error type services throw (DECISIONS §2). The error handler turns it into the envelope
 * `{returnCode: status, returnMessage: code, returnData}` with the HTTP status of the catalogue.
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

/** PostgreSQL SQLSTATE of a driver error (pg and PGlite both expose `code`), if any. */
export function pgCode(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string')
    return err.code;
  return undefined;
}

/** The constraint name of a PostgreSQL error, if any. */
export function pgConstraint(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'constraint' in err && typeof err.constraint === 'string') {
    return err.constraint;
  }
  return undefined;
}
