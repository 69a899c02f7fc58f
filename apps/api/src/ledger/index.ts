export { type AccountRef, account, ensureAccount } from './accounts.ts';
export { checkLedger, type Invariant, type LedgerCheckResult } from './check.ts';
export {
  type LedgerCheckOptions,
  ledgerCheckTick,
  requestFullCheck,
  type StoredLedgerCheck,
  storedLedgerCheck,
  type TickOutcome,
} from './check-job.ts';
export type { EntryKind, ListingRelease } from './entries.ts';
export {
  assertBalanced,
  balanceOf,
  type EntryInput,
  LedgerRefConflictError,
  type PostingInput,
  type PostResult,
  post,
} from './ledger.ts';
export { type Movement, type MovementName, movements } from './movements.ts';
