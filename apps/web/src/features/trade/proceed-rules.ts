import { depositNoteField } from '@p2p/contract/market.ts';
import { z } from 'zod';
import { firstIssue, schemaOf } from '../../lib/form-rules';

/**
 * The /proceed deposit note (DECISIONS §11, API field `txid`): what the seller saw on their bank statement,
 * 1-100 printable characters without emoji, the contract's rule (the API refuses the same).
 */
export type ProceedError = 'TXID_REQUIRED' | 'TOO_LONG' | 'INVALID_FORMAT';

/** The note as sent: surrounding whitespace removed. */
export function normalizeTxid(raw: string): string {
  return raw.trim();
}

/** The field code of a note the contract refuses (blank, over 100 characters, emoji or control), else undefined. */
export function txidError(raw: string): ProceedError | undefined {
  return firstIssue(depositNoteField, raw) as ProceedError | undefined;
}

/** The complete button is disabled while the note is refused or the request is in flight. */
export function canSubmitProceed(raw: string, submitting: boolean): boolean {
  return !submitting && txidError(raw) === undefined;
}

const proceedObject = z.object({
  amountChecked: z.boolean(),
  nameChecked: z.boolean(),
  txid: z.string(),
  password: z.string(),
});

/** The /proceed release form: the two checks, the deposit note and the step-up password. */
export type ProceedValues = z.infer<typeof proceedObject>;

/** The release form's schema: the note's rule at its field; the checks and the password gate the button. */
export const proceedSchema = schemaOf(proceedObject, (v) => ({ txid: txidError(v.txid) }));
