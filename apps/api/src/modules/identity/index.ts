/*
 * The identity module's front door (docs/architecture.md "The API"): members, sign-in and sessions, SMS codes,
 * the step-up, and the operator's second factor at sign-in. Other modules, app.ts and the CLI import only this
 * file (tests of other modules may also use test-kit.ts); src/modules/boundaries.test.ts refuses a deep import.
 */
export { type Limit, makeLimit } from './limits.ts';
export { hashPassword, verifyPassword } from './password.ts';
export {
  anyMemberExists,
  insertMember,
  lockMemberForTrade,
  lockMemberRow,
  loginIdOf,
  memberByLoginId,
  memberKycRow,
  OPS_MEMBER_COLUMNS,
  type OpsMemberRow,
  raiseKycLevel,
  setMemberStatus,
  setProfileBankAccount,
} from './repo.ts';
export {
  closedMembersDue,
  lockMemberForClose,
  loginAttemptRows,
  markMemberClosed,
  memberByNickname,
  pruneLoginAttempts,
  pruneRefreshTokens,
  pruneSmsCodes,
  purgeMemberIdentity,
} from './repo-records.ts';
export {
  confirmTotpRow,
  deleteTotp,
  hasConfirmedTotp,
  lockTotpRow,
  totpConfirmation,
  upsertPendingTotp,
} from './repo-totp.ts';
export { default as identityRoutes } from './routes.ts';
export { liveSessions, openSession, revokeAllRefreshTokens } from './session.ts';
export { type DevOutbox, devOutboxFor } from './sms/console.ts';
export { createSms, type SmsProvider } from './sms/provider.ts';
export { requireCurrentPassword, requireStepUp } from './step-up.ts';
export { acceptedTotpStep } from './totp.ts';
export { openTotpSecret, sealTotpSecret, totpKey } from './totp-crypto.ts';
