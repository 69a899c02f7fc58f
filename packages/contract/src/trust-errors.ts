/* No imports: errors.ts spreads this into ERROR_STATUS, and trust.ts imports errors.ts. */

/** Refusals of DECISIONS §19 owned here; spread into ERROR_STATUS (errors.ts). */
export const TRUST_ERROR_STATUS = {
  /** DECISIONS §19: a listing pays only into the seller's verified bank account (1원 인증). */
  BANK_ACCOUNT_NOT_VERIFIED: 422,
  /** DECISIONS §19: the bank reports another holder name than the member's verified name. */
  ACCOUNT_HOLDER_MISMATCH: 422,
  /** DECISIONS §19: coins received by purchase or internal transfer are on hold; returnData {until, heldAmount}. */
  WITHDRAWAL_HELD: 422,
  /** DECISIONS §19: a withdrawal worth TRAVEL_RULE_MIN_KRW or more needs `beneficiary`; returnData {minKrw}. */
  TRAVEL_RULE_INFO_REQUIRED: 422,
} as const;
