import { z } from 'zod';
import { schemaOf } from '../../lib/form-rules';

/** The /proceed rules of SPEC §5 "Proceed": the TxID is trimmed and required. */
export type ProceedError = 'TXID_REQUIRED';

/** The TxID as sent: surrounding whitespace removed. */
export function normalizeTxid(raw: string): string {
  return raw.trim();
}

/** TXID_REQUIRED when nothing but whitespace was typed (text 트랜젝션 ID를 입력해주세요.). */
export function txidError(raw: string): ProceedError | undefined {
  return normalizeTxid(raw) ? undefined : 'TXID_REQUIRED';
}

/** The complete button is disabled while the TxID is empty or the request is in flight. */
export function canSubmitProceed(raw: string, submitting: boolean): boolean {
  return !submitting && txidError(raw) === undefined;
}

const proceedObject = z.object({
  amountChecked: z.boolean(),
  nameChecked: z.boolean(),
  txid: z.string(),
  password: z.string(),
});

/** The /proceed release form: the two checks, the TxID and the step-up password. */
export type ProceedValues = z.infer<typeof proceedObject>;

/** The release form's schema: the TxID rule at its field; the checks and the password gate the button. */
export const proceedSchema = schemaOf(proceedObject, (v) => ({ txid: txidError(v.txid) }));
