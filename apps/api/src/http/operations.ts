import type { ErrorCode } from '@p2p/contract';

/** What the API document says of one operation beyond its schemas (DECISIONS §15, http/openapi.ts). */
export interface OperationDoc {
  /** Unique, camelCase, stable: client generators name their functions after it. */
  operationId: string;
  /** One sentence: what the call does for its caller. A route's own `schema.summary` wins when it has one. */
  summary?: string;
  /** The refusals of this operation's rules. Schema, guard and idempotency refusals are added by openapi.ts. */
  errors?: ErrorCode[];
  /** A bearer token is optional (the call works for visitors and members alike). */
  optionalAuth?: true;
}

const LOGIN_LIMIT: ErrorCode[] = ['RATE_LIMITED'];
const PURCHASE: ErrorCode[] = [
  'LISTING_NOT_FOUND',
  'LISTING_NOT_OPEN',
  'WALLET_NOT_FOUND',
  'INVALID_ADDRESS',
  'QTY_MISMATCH',
  'SELF_TRADE',
  'INSUFFICIENT_LISTING_QTY',
  'BELOW_MIN_PURCHASE',
  'ABOVE_MAX_PURCHASE',
  'RESERVE_TIME_INVALID',
  'PURCHASE_NOT_VERIFIED',
  'TOO_MANY_LIVE_ORDERS',
  'PURCHASE_BLOCKED',
  'BLOCKED',
];

/**
 * Every operation of the member API, keyed by "METHOD /fastify/:path". A route without an entry fails
 * apps/api/test/openapi.test.ts: add one line here with every new route. Operator routes (/ops/api/v1) carry
 * their entry beside the route instead (`doc` of http/operator-api.ts).
 */
export const OPERATIONS: Record<string, OperationDoc> = {
  'GET /api/v1/bank-account': {
    operationId: 'getBankAccount',
    summary: 'The verified bank account, the open 1원 request and whether listings need one (DECISIONS §19).',
  },
  'POST /api/v1/bank-account/verify/request': {
    operationId: 'requestBankVerification',
    summary:
      'Sends 1 KRW whose depositor name carries a 4-digit code to the account (a change needs the step-up).',
    errors: ['RATE_LIMITED', 'STEP_UP_REQUIRED', 'INVALID_CREDENTIALS', 'SERVICE_UNAVAILABLE'],
  },
  'POST /api/v1/bank-account/verify': {
    operationId: 'verifyBankAccount',
    summary: 'Checks the 1원 code and saves the account when its holder is the verified name.',
    errors: [
      'CODE_EXPIRED',
      'CODE_MISMATCH',
      'CODE_TRIES_EXCEEDED',
      'ACCOUNT_HOLDER_MISMATCH',
      'RATE_LIMITED',
    ],
  },
  'GET /dev/bank/outbox': {
    operationId: 'getDevBankOutbox',
    summary: 'Development only: the newest 1 KRW the console bank sent to an account.',
    errors: ['NOT_FOUND'],
  },
  'PUT /dev/bank/holder': {
    operationId: 'setDevBankHolder',
    summary: 'Development only: the holder name the console bank reports for an account number.',
  },
  'GET /api/v1/transfer/recipient': {
    operationId: 'getTransferRecipient',
    summary:
      'Names (masked) the member an internal transfer to this address would reach, for the review before the password.',
    errors: ['WALLET_NOT_FOUND', 'SELF_TRANSFER', 'RATE_LIMITED'],
  },
  'GET /api/v1/travel-rule/quote': {
    operationId: 'getTravelRuleQuote',
    summary: 'Whether an external withdrawal of this amount needs the beneficiary (DECISIONS §19).',
  },
  'GET /healthz': {
    operationId: 'getHealth',
    summary: 'Tells whether the process is up (no database check).',
  },
  'GET /readyz': {
    operationId: 'getReadiness',
    summary: 'Tells whether this instance takes traffic: the database answers and it is not draining.',
    errors: ['SERVICE_UNAVAILABLE'],
  },

  'POST /api/v1/auth/login': {
    operationId: 'login',
    summary: 'Signs in with login ID and password (and an operator TOTP code) and answers a token pair.',
    errors: ['INVALID_CREDENTIALS', 'MEMBER_SUSPENDED', 'TOTP_REQUIRED', 'TOTP_INVALID', ...LOGIN_LIMIT],
  },
  'POST /api/v1/auth/refresh': {
    operationId: 'refreshTokens',
    summary: 'Rotates the refresh token and answers a new token pair; a reused token revokes its session.',
    errors: ['REFRESH_TOKEN_INVALID', 'MEMBER_SUSPENDED'],
  },
  'POST /api/v1/auth/logout': {
    operationId: 'logout',
    summary: 'Ends the session of a refresh token (and of the bearer token, when one is sent).',
  },
  'POST /api/v1/auth/find-phone': {
    operationId: 'findPhone',
    summary: 'Answers the masked phone number registered for a login ID.',
    errors: ['NOT_FOUND_MEMBER_ID', 'RATE_LIMITED'],
  },
  'POST /api/v1/auth/verify-reset-password': {
    operationId: 'verifyResetPassword',
    summary: 'Checks a password-reset SMS code and answers a short-lived reset ticket.',
    errors: ['NOT_FOUND_MEMBER_ID', 'CODE_EXPIRED', 'CODE_MISMATCH', 'CODE_TRIES_EXCEEDED', 'RATE_LIMITED'],
  },
  'POST /api/v1/auth/reset-password': {
    operationId: 'resetPassword',
    summary: 'Sets a new password with a reset ticket and ends every session of the member.',
    errors: ['RESET_TICKET_INVALID'],
  },
  'POST /api/v1/members/signup': {
    operationId: 'signup',
    summary: 'Creates a member account after the phone was verified with an SMS code.',
    errors: ['PHONE_NOT_VERIFIED', 'LOGIN_ID_TAKEN', 'NICKNAME_TAKEN', 'PHONE_TAKEN'],
  },
  'POST /api/v1/members/check-id': {
    operationId: 'checkLoginId',
    summary: 'Tells whether a login ID is still free.',
    errors: ['RATE_LIMITED'],
  },
  'POST /api/v1/members/check-nickname': {
    operationId: 'checkNickname',
    summary: 'Tells whether a nickname is still free.',
    errors: ['RATE_LIMITED'],
  },
  'GET /my': { operationId: 'getProfile', summary: "Answers the signed-in member's profile." },
  'PUT /my': {
    operationId: 'updateProfile',
    summary: "Changes the member's profile; password, phone and bank changes need the current password.",
    errors: ['CURRENT_PASSWORD_REQUIRED', 'PHONE_NOT_VERIFIED', 'NICKNAME_TAKEN', 'PHONE_TAKEN'],
  },
  'POST /sms/request': {
    operationId: 'requestSmsCode',
    summary: 'Sends a 6-digit SMS code for signup, a purchase check, a phone change or a password reset.',
    errors: ['NOT_FOUND_MEMBER_ID', 'PHONE_TAKEN', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE'],
    optionalAuth: true,
  },
  'POST /sms/verify': {
    operationId: 'verifySmsCode',
    summary: 'Checks an SMS code; a right code marks the phone verified for its purpose.',
    errors: ['CODE_EXPIRED', 'CODE_MISMATCH', 'CODE_TRIES_EXCEEDED', 'RATE_LIMITED'],
    optionalAuth: true,
  },
  'GET /dev/sms/outbox': {
    operationId: 'getDevSmsOutbox',
    summary: 'Development only: the last SMS code sent to a phone.',
    errors: ['NOT_FOUND'],
  },

  'GET /api/v1/kyc': {
    operationId: 'getKycStatus',
    summary: 'The caller’s identity level, verified name, newest ID document and the level policy.',
  },
  'POST /api/v1/kyc/identity': {
    operationId: 'startIdentityCheck',
    summary: 'Starts the identity check: the identity provider sends a code to the member’s phone.',
    errors: ['KYC_ALREADY_VERIFIED', 'UNDERAGE', 'NAME_MISMATCH', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE'],
  },
  'POST /api/v1/kyc/identity/verify': {
    operationId: 'verifyIdentityCheck',
    summary: 'Finishes the identity check with the code: the member reaches level 1.',
    errors: [
      'CODE_EXPIRED',
      'CODE_MISMATCH',
      'CODE_TRIES_EXCEEDED',
      'NAME_MISMATCH',
      'RATE_LIMITED',
      'SERVICE_UNAVAILABLE',
    ],
  },
  'POST /api/v1/kyc/documents': {
    operationId: 'uploadKycDocument',
    summary:
      'Uploads an ID document (multipart field file: JPEG or PNG, at most 10 MB) for an operator’s review.',
    errors: [
      'KYC_REQUIRED',
      'KYC_ALREADY_VERIFIED',
      'KYC_DOCUMENT_PENDING',
      'IMAGE_REQUIRED',
      'IMAGE_TOO_LARGE',
      'IMAGE_UNSUPPORTED',
      'RATE_LIMITED',
    ],
  },

  'GET /api/v1/wallets': {
    operationId: 'listWallets',
    summary: "Lists the member's wallets with balances, deposit addresses and withdrawal fees.",
  },
  'POST /api/v1/wallets/create': {
    operationId: 'createWallet',
    summary: 'Creates the wallet of a coin with its derived deposit address.',
    errors: ['WALLET_EXISTS'],
  },
  'GET /transfer': {
    operationId: 'listTransfers',
    summary: "Lists a wallet's deposits and withdrawals, newest first.",
    errors: ['WALLET_NOT_FOUND'],
  },
  'POST /transfer/request': {
    operationId: 'requestTransfer',
    summary: 'Sends coins to another member (at once) or to an outside address (after operator review).',
    errors: [
      'WALLET_NOT_FOUND',
      'INVALID_ADDRESS',
      'SELF_TRANSFER',
      'INSUFFICIENT_BALANCE',
      'STEP_UP_REQUIRED',
      'WITHDRAWAL_HELD',
      'TRAVEL_RULE_INFO_REQUIRED',
      'RATE_LIMITED',
    ],
  },

  'POST /api/v1/sell-listings': {
    operationId: 'createSellListing',
    summary:
      'Lists coins for sale after the step-up: the maximum quantity moves into escrow until an operator approves.',
    errors: [
      'WALLET_NOT_FOUND',
      'DUPLICATE_SELLER',
      'INSUFFICIENT_BALANCE',
      'STEP_UP_REQUIRED',
      'INVALID_CREDENTIALS',
      'CODE_EXPIRED',
      'CODE_MISMATCH',
      'CODE_TRIES_EXCEEDED',
      'RATE_LIMITED',
    ],
  },
  'GET /api/v1/sell-listings': {
    operationId: 'listTradeListings',
    summary: 'The public trade list of open listings, by coin and sort, with a keyset cursor.',
  },
  'GET /api/v1/sell-listings/best': {
    operationId: 'listBestListings',
    summary: 'The best-priced open listing of each coin (at most 10).',
  },
  'POST /api/v1/sell-listings/:id/close': {
    operationId: 'closeSellListing',
    summary: "Closes the seller's listing; the part not held by live orders returns from escrow.",
    errors: ['LISTING_NOT_FOUND', 'INVALID_STATE'],
  },
  'PATCH /api/v1/sell-listings/:id': {
    operationId: 'editSellListing',
    summary:
      "Edits the price and quantities of the seller's active listing after the step-up; the escrow follows maxQty, and a price more than 10% from the market goes back to review.",
    errors: [
      'LISTING_NOT_FOUND',
      'INVALID_STATE',
      'INSUFFICIENT_LISTING_QTY',
      'INSUFFICIENT_BALANCE',
      'STEP_UP_REQUIRED',
      'INVALID_CREDENTIALS',
      'CODE_EXPIRED',
      'CODE_MISMATCH',
      'CODE_TRIES_EXCEEDED',
      'RATE_LIMITED',
    ],
  },
  'POST /api/v1/sell-listings/:id/pause': {
    operationId: 'pauseSellListing',
    summary: "Pauses the seller's open listing: it leaves the trade list until resumed.",
    errors: ['LISTING_NOT_FOUND', 'INVALID_STATE'],
  },
  'POST /api/v1/sell-listings/:id/resume': {
    operationId: 'resumeSellListing',
    summary: "Resumes the seller's paused listing.",
    errors: ['LISTING_NOT_FOUND', 'INVALID_STATE'],
  },
  'GET /my/sell': {
    operationId: 'listMyListings',
    summary: "Lists the seller's own listings, newest first.",
  },
  'GET /my/sell/:id': {
    operationId: 'getMyListing',
    summary: "One of the seller's own listings with its live orders.",
    errors: ['LISTING_NOT_FOUND'],
  },

  'POST /buy-orders': {
    operationId: 'createBuyOrder',
    summary: 'Places a buy order on an open listing after a fresh phone check; the quantity is held for it.',
    errors: PURCHASE,
  },
  'POST /buy-orders/:id/cancel': {
    operationId: 'cancelBuyOrder',
    summary: 'The buyer cancels a REQUESTED order; the quantity returns to the listing.',
    errors: ['ORDER_NOT_FOUND', 'INVALID_STATE'],
  },
  'POST /buy-orders/:id/reject': {
    operationId: 'rejectBuyOrder',
    summary: 'The seller rejects a REQUESTED order; the quantity returns to the listing.',
    errors: ['ORDER_NOT_FOUND', 'INVALID_STATE'],
  },
  'POST /buy-orders/:id/complete': {
    operationId: 'completeBuyOrder',
    summary: "The seller confirms the won arrived: escrow goes to the buyer's wallet or address.",
    errors: ['ORDER_NOT_FOUND', 'INVALID_STATE', 'STEP_UP_REQUIRED', 'RATE_LIMITED'],
  },
  'POST /buy-orders/:id/paid': {
    operationId: 'markBuyOrderPaid',
    summary: 'The buyer reports the bank transfer sent: REQUESTED -> PAID.',
    errors: ['ORDER_NOT_FOUND', 'INVALID_STATE'],
  },
  'POST /buy-orders/:id/dispute': {
    operationId: 'disputeBuyOrder',
    summary: 'A party opens a dispute from PAID, or adds a statement while DISPUTED.',
    errors: ['ORDER_NOT_FOUND', 'INVALID_STATE', 'DISPUTE_TOO_EARLY'],
  },
  'GET /my/buy-history': {
    operationId: 'listBuyHistory',
    summary: "Lists the buyer's orders, newest first.",
  },
  'GET /my/sell-history': {
    operationId: 'listSellHistory',
    summary: "Lists the seller's orders, newest first.",
  },
  'GET /my/buy-history/:id': {
    operationId: 'getBuyOrder',
    summary: "One of the buyer's orders with the seller's bank account and the deadlines.",
    errors: ['ORDER_NOT_FOUND'],
  },
  'GET /my/sell-history/:id': {
    operationId: 'getSellOrder',
    summary: "One of the seller's orders with the buyer's delivery and the deadlines.",
    errors: ['ORDER_NOT_FOUND'],
  },
  'GET /my/order-counts': { operationId: 'getOrderCounts' },
  'GET /api/v1/blocks': { operationId: 'listBlocks', summary: 'The members the signed-in member blocks.' },
  'POST /api/v1/blocks': {
    operationId: 'blockMember',
    summary: "Blocks a member by nickname: their listings are hidden and neither can buy from the other's.",
    errors: ['NICKNAME_NOT_FOUND', 'BLOCK_SELF', 'BLOCKS_LIMIT', 'RATE_LIMITED'],
  },
  'DELETE /api/v1/blocks/:nickname': {
    operationId: 'unblockMember',
    summary: 'Lifts a block of the signed-in member.',
    errors: ['NOT_FOUND'],
  },
  'GET /api/v1/my/logins': {
    operationId: 'listMyLogins',
    summary: 'The sign-in attempts of the last 90 days: time, masked address, device, result.',
  },
  'POST /api/v1/my/close': {
    operationId: 'closeMembership',
    summary: 'Closes the membership (password again); refused while orders, listings or balances remain.',
    errors: ['CURRENT_PASSWORD_REQUIRED', 'INVALID_CREDENTIALS', 'ACCOUNT_NOT_EMPTY', 'RATE_LIMITED'],
  },
  'GET /buy-orders/:id/messages': { operationId: 'listOrderMessages', errors: ['ORDER_NOT_FOUND'] },
  'POST /buy-orders/:id/messages': {
    operationId: 'postOrderMessage',
    errors: ['ORDER_NOT_FOUND', 'CHAT_CLOSED', 'RATE_LIMITED'],
  },
  'POST /buy-orders/:id/messages/image': {
    operationId: 'postOrderImage',
    errors: ['ORDER_NOT_FOUND', 'CHAT_CLOSED', 'IMAGE_REQUIRED', 'IMAGE_TOO_LARGE', 'IMAGE_UNSUPPORTED'],
  },
  'GET /buy-orders/:id/messages/:messageId/image': {
    operationId: 'getOrderImage',
    errors: ['ORDER_NOT_FOUND', 'NOT_FOUND'],
  },

  'GET /api/v1/events': { operationId: 'streamEvents' },
  'GET /api/v1/notifications': { operationId: 'listNotifications' },
  'GET /api/v1/notifications/unread-count': { operationId: 'getUnreadNotificationCount' },
  'POST /api/v1/notifications/read': { operationId: 'markNotificationsRead' },
  'GET /api/v1/notifications/settings': { operationId: 'getNotificationSettings' },
  'PUT /api/v1/notifications/settings': { operationId: 'updateNotificationSettings' },
  'GET /api/v1/push/vapid-public-key': { operationId: 'getVapidPublicKey', errors: ['SERVICE_UNAVAILABLE'] },
  'POST /api/v1/push/subscriptions': { operationId: 'subscribePush', errors: ['SERVICE_UNAVAILABLE'] },
  'DELETE /api/v1/push/subscriptions': { operationId: 'unsubscribePush' },

  'GET /api/v1/company': {
    operationId: 'getCompany',
    summary:
      "The operator's business details for the footer (name, CEO, registration and VASP numbers, support).",
  },
  'GET /api/v1/reserves': {
    operationId: 'getReserves',
    summary:
      "Proof of reserves (DECISIONS §20): each coin's newest snapshot, liabilities, reserves, ratio and Merkle root.",
  },
  'GET /api/v1/reserves/proof': {
    operationId: 'getReserveProof',
    summary:
      "The member's own leaf and Merkle-sum path in a coin's newest snapshot, verifiable without our code.",
    errors: ['NOT_FOUND', 'RATE_LIMITED'],
  },
  'GET /api/v1/prices': {
    operationId: 'getPrices',
    summary: 'Won prices and 24 h changes of every coin, cached and stale-tolerant.',
    errors: ['PRICE_UNAVAILABLE'],
  },
};
