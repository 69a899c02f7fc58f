/** Business constants and limits of SPEC §9, shared by web and API. Units are in the names. */
export const LIMITS = {
  loginIdMin: 4,
  loginIdMax: 16,
  nicknameMin: 4,
  nicknameMax: 12,
  passwordMin: 6,
  passwordMax: 20,
  smsCodeTtlSec: 120,
  resetCodeTtlSec: 30,
  smsCodeLength: 6,
  maxPurchaseKrw: 9_500_000,
  /** A listing's maximum quantity times its unit price: at most 100억 won (overflow is a field error). */
  maxListingTotalKrw: 10_000_000_000,
  quickAmountsKrw: [10_000, 50_000, 100_000, 500_000, 1_000_000],
  reserveStepMin: 15,
  listPageSize: 20,
  listPageSizeMax: 50,
  infiniteScrollThresholdPx: 100,
  priceRefreshMs: 60_000,
  priceCacheMs: 600_000,
  apiTimeoutMs: 10_000,
  rehydrateTimeoutMs: 5_000,
  /** SPEC §9: the QR scanner gives up after 10 s without a code (and says so, with a retry). */
  qrDecodeTimeoutMs: 10_000,
  copyConfirmMs: 2_000,
  toastTradingMs: 2_000,
  toastDefaultMs: 5_000,
  qtyDecimals: 8,
  displayQtyDecimals: 4,
  withdrawDecimals: 6,
  sellQtyDecimals: 4,
  receiveQtyDecimals: 4,
  txidMax: 128,
  /** DECISIONS §11: the seller's deposit note (입금 확인 메모) at release, in characters. */
  depositNoteMax: 100,
  purchaseVerifyWindowSec: 300,
  signupVerifyWindowSec: 600,
  resetTicketTtlSec: 600,
  addressShortenAbove: 11,
} as const;

export const DATE_FORMAT = 'yyyy-MM-dd';
export const TIME_FORMAT = 'HH:mm';
