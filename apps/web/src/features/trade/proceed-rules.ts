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
