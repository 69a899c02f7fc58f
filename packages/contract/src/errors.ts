/**
 * The error catalogue (DECISIONS §2): every stable code the API can answer with, and its HTTP status.
 * `returnCode` in the envelope equals the HTTP status; `returnMessage` is the code.
 * The web app maps these codes to the localized toast texts of SPEC §8.
 */
export const ERROR_STATUS = {
  /** A field, parameter or header broke its schema; returnData {fields: {name: FIELD_CODE}} (SPEC §5). */
  VALIDATION_FAILED: 400,
  /** The request cannot be served as sent (a combination the schema cannot express). */
  BAD_REQUEST: 400,
  /** DECISIONS §12: a chat image upload without a file, or an empty one */
  IMAGE_REQUIRED: 400,
  /** Login ID and password do not match (never says which one was wrong). */
  INVALID_CREDENTIALS: 400,
  /** PUT /my changes password, phone or bank without the right currentPassword (DECISIONS §13). */
  CURRENT_PASSWORD_REQUIRED: 400,
  /** No live SMS code for this phone and purpose: none was sent, it expired or it was used. */
  CODE_EXPIRED: 400,
  /** The SMS code is wrong; returnData {triesLeft}. */
  CODE_MISMATCH: 400,
  /** Too many wrong SMS codes: ask for a new one. */
  CODE_TRIES_EXCEEDED: 400,
  /** The phone was not verified with an SMS code first (signup, phone change). */
  PHONE_NOT_VERIFIED: 400,
  /** The quantity sent does not match the one computed from the won amount and the unit price. */
  QTY_MISMATCH: 400,
  /** Not a valid address for the coin and network (checksum, format). */
  INVALID_ADDRESS: 400,
  /** The password-reset ticket is unknown, used or expired. */
  RESET_TICKET_INVALID: 400,
  /** The operator's authenticator code is wrong or was already used (DECISIONS §13). */
  TOTP_INVALID: 400,
  /** No bearer token, or a token that is invalid or whose session was revoked. */
  UNAUTHORIZED: 401,
  /** The access token expired: refresh it (DECISIONS §6). */
  TOKEN_EXPIRED: 401,
  /** The refresh token is unknown, revoked, expired or reused (its family is revoked). */
  REFRESH_TOKEN_INVALID: 401,
  /** The operator has a confirmed TOTP: the login needs totpCode (DECISIONS §13). */
  TOTP_REQUIRED: 401,
  /** The caller's role may not do this (members on the operator API, an operator on themself). */
  FORBIDDEN: 403,
  /** The account is suspended by an operator (DECISIONS §8). */
  MEMBER_SUSPENDED: 403,
  /** DECISIONS §19: the membership was closed; answered only after the right password, like a suspension. */
  MEMBER_CLOSED: 403,
  /** No such route or object. */
  NOT_FOUND: 404,
  /** No member with this login ID. */
  NOT_FOUND_MEMBER_ID: 404,
  /** DECISIONS §19: no member has this nickname (what the public nickname check tells anyway). */
  NICKNAME_NOT_FOUND: 404,
  /** The caller has no active wallet of that coin (or the address belongs to none). */
  WALLET_NOT_FOUND: 404,
  /** No such sell listing visible to the caller. */
  LISTING_NOT_FOUND: 404,
  /** No such buy order, or the caller is not one of its parties. */
  ORDER_NOT_FOUND: 404,
  /** Another member already uses this login ID. */
  LOGIN_ID_TAKEN: 409,
  /** Another member already uses this nickname. */
  NICKNAME_TAKEN: 409,
  /** Another member account is already registered with this phone (one account per phone). */
  PHONE_TAKEN: 409,
  /** The caller already has a wallet of this coin. */
  WALLET_EXISTS: 409,
  /** The seller already has a live listing of this coin. */
  DUPLICATE_SELLER: 409,
  /** The object's state does not allow this transition (DECISIONS §11 transition table). */
  INVALID_STATE: 409,
  /** A unique record already exists with other content (e.g. a deposit txid credited elsewhere). */
  DUPLICATE_ENTRY: 409,
  /** DECISIONS §19: closing needs an empty membership; returnData says what is left (orders, listings, coins). */
  ACCOUNT_NOT_EMPTY: 409,
  /** DECISIONS §12: the order chat closed for writing (7 days after the order ended; operators: not DISPUTED) */
  CHAT_CLOSED: 409,
  /** The operator's TOTP is confirmed; only the CLI can remove it. */
  TOTP_ALREADY_ENROLLED: 409,
  /** The body is over 64 KB. */
  PAYLOAD_TOO_LARGE: 413,
  /** DECISIONS §12: a chat image over 5 MB; DECISIONS §19: an ID document over 10 MB */
  IMAGE_TOO_LARGE: 413,
  /** The available balance does not cover the amount (and fee). */
  INSUFFICIENT_BALANCE: 422,
  /** The listing is not open for purchases (pending, closed, or its seller is suspended). */
  LISTING_NOT_OPEN: 422,
  /** The listing's remaining quantity does not cover the purchase. */
  INSUFFICIENT_LISTING_QTY: 422,
  /** The purchase is below the listing's minimum (SPEC §5). */
  BELOW_MIN_PURCHASE: 422,
  /** The purchase is above the listing's maximum (SPEC §5). */
  ABOVE_MAX_PURCHASE: 422,
  /** A member cannot buy from their own listing. */
  SELF_TRADE: 422,
  /** A member cannot send to their own wallet address. */
  SELF_TRANSFER: 422,
  /** The reserved delivery time is off the 15-minute step, past or too far ahead; returnData {reason}. */
  RESERVE_TIME_INVALID: 422,
  /** No fresh purchase check (SMS code) for this buyer (DECISIONS §11). */
  PURCHASE_NOT_VERIFIED: 422,
  /** DECISIONS §11: a buyer holds at most MAX_LIVE_ORDERS_PER_BUYER live orders */
  TOO_MANY_LIVE_ORDERS: 422,
  /** DECISIONS §11: too many cancels or expiries in 24 h; returnData {until} */
  PURCHASE_BLOCKED: 422,
  /** DECISIONS §19: one of buyer and seller blocked the other; no order between them. */
  BLOCKED: 422,
  /** DECISIONS §19: a member cannot block themself. */
  BLOCK_SELF: 422,
  /** DECISIONS §19: the block list is full (MAX_BLOCKS); returnData {max}. */
  BLOCKS_LIMIT: 422,
  /** DECISIONS §11: a buyer may open a dispute only ORDER_DISPUTE_AFTER_SEC after PAID; returnData {from} */
  DISPUTE_TOO_EARLY: 422,
  /** DECISIONS §15: this Idempotency-Key was used by the caller for another request (method, path or body). */
  IDEMPOTENCY_KEY_REUSED: 422,
  /** DECISIONS §15: a request with this Idempotency-Key is still running; retry it once that one has answered. */
  IDEMPOTENCY_KEY_IN_PROGRESS: 409,
  /** This move needs stepUp {password} or {code}, missing or wrong (DECISIONS §13). */
  STEP_UP_REQUIRED: 422,
  /** DECISIONS §12: the upload is not a JPEG, PNG or WebP image that decodes (§19 ID documents: JPEG or PNG) */
  IMAGE_UNSUPPORTED: 422,
  /** DECISIONS §18: the signer refuses the transaction: above its SIGNER_MAX_TX_<COIN>; returnData {limit}. */
  SIGNER_LIMIT_TX: 422,
  /** DECISIONS §18: the signer refuses: its 24 h SIGNER_MAX_DAY_<COIN> would be passed; returnData {limit, used}. */
  SIGNER_LIMIT_DAY: 422,
  /** DECISIONS §18: the signer signed this request id for another transaction; it never signs a second one. */
  SIGNER_REQUEST_REUSED: 409,
  /** DECISIONS §19: the member's identity level is below what this needs; returnData {level} (the level needed) */
  KYC_REQUIRED: 422,
  /** DECISIONS §19: the name given for the identity check differs from the member's name (after NFC and spaces) */
  NAME_MISMATCH: 422,
  /** DECISIONS §19: younger than 19 full years on today's Seoul date; returnData {minAge} */
  UNDERAGE: 422,
  /** DECISIONS §19: this identity step is already done (level 1 for the identity check, 2 for documents) */
  KYC_ALREADY_VERIFIED: 409,
  /** DECISIONS §19: an ID document of the member is waiting for review */
  KYC_DOCUMENT_PENDING: 409,
  /** Too many requests from this caller, IP or phone: retry later. */
  RATE_LIMITED: 429,
  /** An unexpected failure; the cause goes to the log only. Retrying with the same Idempotency-Key runs the call again. */
  INTERNAL_ERROR: 500,
  /** No price could be fetched and none is cached. */
  PRICE_UNAVAILABLE: 503,
  /** The instance is draining or a dependency is down; returnData {reason}. */
  SERVICE_UNAVAILABLE: 503,
  /** The database cannot be reached (connection lost or refused); retry later (DECISIONS §14). */
  DB_UNAVAILABLE: 503,
  /** DECISIONS §18: the signer refused the call (authentication, clock, a malformed or unsignable intent); returnData {reason}. */
  SIGNER_REFUSED: 502,
  /** DECISIONS §18: the signer cannot be reached or timed out; retry later (the same request id is safe to repeat). */
  SIGNER_UNAVAILABLE: 503,
  /** DECISIONS §19: a listing pays only into the seller's verified bank account (1원 인증). */
  BANK_ACCOUNT_NOT_VERIFIED: 422,
  /** DECISIONS §19: the bank reports another holder name than the member's verified name. */
  ACCOUNT_HOLDER_MISMATCH: 422,
  /** DECISIONS §19: bought or received coins are on hold for external withdrawals; returnData {until, heldAmount}. */
  WITHDRAWAL_HELD: 422,
  /** DECISIONS §19: a withdrawal worth TRAVEL_RULE_MIN_KRW or more needs `beneficiary`; returnData {minKrw}. */
  TRAVEL_RULE_INFO_REQUIRED: 422,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Field-level validation codes carried in `returnData.fields` of a VALIDATION_FAILED answer (SPEC §5). */
export const FIELD_CODES = {
  REQUIRED: 'REQUIRED',
  INVALID_TYPE: 'INVALID_TYPE',
  INVALID_FORMAT: 'INVALID_FORMAT',
  TOO_LONG: 'TOO_LONG',
  ID_LENGTH: 'ID_LENGTH',
  ID_CHARSET: 'ID_CHARSET',
  NICKNAME_LENGTH: 'NICKNAME_LENGTH',
  PASSWORD_LENGTH: 'PASSWORD_LENGTH',
  PASSWORD_COMPLEXITY: 'PASSWORD_COMPLEXITY',
  PHONE_INVALID: 'PHONE_INVALID',
  PHONE_NOT_MOBILE: 'PHONE_NOT_MOBILE',
  PHONE_MISMATCH: 'PHONE_MISMATCH',
  AMOUNT_INVALID: 'AMOUNT_INVALID',
  AMOUNT_DECIMALS: 'AMOUNT_DECIMALS',
  AMOUNT_NOT_POSITIVE: 'AMOUNT_NOT_POSITIVE',
  MIN_ABOVE_MAX: 'MIN_ABOVE_MAX',
  BANK_REQUIRED: 'BANK_REQUIRED',
  BANK_NAME_REQUIRED: 'BANK_NAME_REQUIRED',
  ACCOUNT_NO_DIGITS: 'ACCOUNT_NO_DIGITS',
  ACCOUNT_NO_LENGTH: 'ACCOUNT_NO_LENGTH',
  NAME_INVALID: 'NAME_INVALID',
  PRICE_INTEGER: 'PRICE_INTEGER',
  TXID_REQUIRED: 'TXID_REQUIRED',
  LISTING_TOTAL_TOO_HIGH: 'LISTING_TOTAL_TOO_HIGH',
  DATE_INVALID: 'DATE_INVALID',
  DATE_IN_FUTURE: 'DATE_IN_FUTURE',
  TIME_STEP: 'TIME_STEP',
} as const;
export type FieldCode = (typeof FIELD_CODES)[keyof typeof FIELD_CODES];
