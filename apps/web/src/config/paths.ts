/**
 * Every route of SPEC §2, defined once. `guarded` routes sit behind the login guard; `trading` routes use
 * the short bottom-center toasts of SPEC §9.
 */
export const paths = {
  home: { path: '/', guarded: false, trading: false },
  login: { path: '/login', guarded: false, trading: false },
  findId: { path: '/findid', guarded: false, trading: false },
  findPw: { path: '/findpw', guarded: false, trading: false },
  agreement: { path: '/agreement', guarded: false, trading: false },
  signup: { path: '/signup', guarded: false, trading: false },
  complete: { path: '/complete', guarded: false, trading: false },
  verify: { path: '/verify', guarded: false, trading: true },
  contact: { path: '/contact', guarded: false, trading: false },
  myInfo: { path: '/myinfo', guarded: true, trading: false },
  account: { path: '/account', guarded: true, trading: false },
  modify: { path: '/modify', guarded: true, trading: false },
  createWallet: { path: '/create_wallet', guarded: true, trading: true },
  wallet: { path: '/wallet', guarded: true, trading: true },
  withdraw: { path: '/withdraw', guarded: true, trading: true },
  deposit: { path: '/deposit', guarded: true, trading: true },
  transaction: { path: '/transaction', guarded: true, trading: true },
  purchase: { path: '/purchase', guarded: true, trading: true },
  sell: { path: '/sell', guarded: true, trading: true },
  requestSuccessfully: { path: '/request_successfully', guarded: true, trading: true },
  viewDetails: { path: '/view_details', guarded: true, trading: true },
  proceed: { path: '/proceed', guarded: true, trading: true },
} as const;

export type RouteKey = keyof typeof paths;

/** True when `pathname` is one of the trading screens (toasts 2000 ms bottom-center, SPEC §9). */
export function isTradingPath(pathname: string): boolean {
  return Object.values(paths).some((r) => r.trading && r.path === pathname);
}
