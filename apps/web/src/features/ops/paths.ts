/** Routes of the operator console (DECISIONS §1, §8), all under /ops; defined once like config/paths.ts. */
export const opsPaths = {
  root: '/ops',
  login: '/ops/login',
  listings: '/ops/listings',
  withdrawals: '/ops/withdrawals',
  deposits: '/ops/deposits',
  chain: '/ops/chain',
  orders: '/ops/orders',
  disputes: '/ops/disputes',
  members: '/ops/members',
  kyc: '/ops/kyc',
  auditLog: '/ops/audit-log',
  ledger: '/ops/ledger',
  security: '/ops/security',
} as const;

export type OpsPathKey = keyof typeof opsPaths;
