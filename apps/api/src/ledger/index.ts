export { type AccountRef, account, ensureAccount } from './accounts.ts';
export { checkLedger, type Invariant, type LedgerCheckResult } from './check.ts';
export {
  assertBalanced,
  balanceOf,
  type EntryInput,
  LedgerRefConflictError,
  type PostingInput,
  type PostResult,
  post,
} from './ledger.ts';
