/**
 * Reading PostgreSQL errors, for the code that turns a refusal of the database (a unique or check
 * constraint, a serialization failure) into a decision: the transaction retry (`db/tx.ts`), the ledger's
 * overdraw check and the modules' duplicate checks. pg and PGlite both expose these fields.
 */

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
