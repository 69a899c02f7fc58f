/**
 * Errors shared by every layer of the API: the domain error `AppError` and the PostgreSQL error readers.
 * Imports nothing of the API itself, so `ledger/`, `db/`, the modules and `http/` may all use it.
 */
export { AppError, fieldError } from './app-error.ts';
export { pgCode, pgConstraint } from './pg.ts';
