/**
 * The errors moved to `errors/` (a layer below the transport, which the ledger and the database helpers may
 * import); re-exported here so that code written against the old path keeps compiling. New code imports
 * `errors/index.ts`.
 */
export { AppError, fieldError, pgCode, pgConstraint } from '../errors/index.ts';
