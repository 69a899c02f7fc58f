/**
 * Every route of SPEC §2, defined once (the login guard is applied where the router composes the pages);
 * `trading` routes use the short bottom-center toasts of SPEC §9.
 */
export const paths = {
  home: { path: '/', trading: false },
  login: { path: '/login', trading: false },
  findId: { path: '/findid', trading: false },
  findPw: { path: '/findpw', trading: false },
  agreement: { path: '/agreement', trading: false },
  signup: { path: '/signup', trading: false },
  complete: { path: '/complete', trading: false },
  verify: { path: '/verify', trading: true },
  contact: { path: '/contact', trading: false },
  myInfo: { path: '/myinfo', trading: false },
  account: { path: '/account', trading: false },
  /** The 인증 센터 (DECISIONS §19): identity levels, the 1원 account check, holds. */
  verification: { path: '/verification', trading: false },
  modify: { path: '/modify', trading: false },
  createWallet: { path: '/create_wallet', trading: true },
  wallet: { path: '/wallet', trading: true },
  withdraw: { path: '/withdraw', trading: true },
  deposit: { path: '/deposit', trading: true },
  transaction: { path: '/transaction', trading: true },
  purchase: { path: '/purchase', trading: true },
  sell: { path: '/sell', trading: true },
  requestSuccessfully: { path: '/request_successfully', trading: true },
  viewDetails: { path: '/view_details', trading: true },
  proceed: { path: '/proceed', trading: true },
  notifications: { path: '/notifications', trading: false },
  reserves: { path: '/reserves', trading: false },
} as const;

/** True when `pathname` is one of the trading screens (toasts 2000 ms bottom-center, SPEC §9). */
export function isTradingPath(pathname: string): boolean {
  return Object.values(paths).some((r) => r.trading && r.path === pathname);
}
