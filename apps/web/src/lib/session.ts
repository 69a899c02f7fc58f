import { create } from 'zustand';
import { local, STORAGE_KEYS, session } from './storage';

/**
 * Client auth state (SPEC §3, §4). Tokens live in localStorage (the source of truth, shared with the API
 * client); this store mirrors the access token so the UI re-renders on login and logout. Signup step flags
 * are memory-only: auth state is not persisted.
 */
interface SessionState {
  accessToken: string | null;
  /** True after a deliberate logout in this page session: guarded screens then go home, not to /login. */
  loggedOut: boolean;
  /** Why the server ended the session (a 401 the refresh could not heal), shown until the next login. */
  ended: SessionEnd | null;
  /** Counts successful token refreshes, so the profile is refetched after each one (SPEC §4). */
  refreshes: number;
  agreements: { service: boolean; privacy: boolean };
  isSignupCompleted: boolean;
  setTokens: (accessToken: string, refreshToken?: string) => void;
  setAgreements: (a: { service: boolean; privacy: boolean }) => void;
  setSignupCompleted: (done: boolean) => void;
  resetSignup: () => void;
  clear: () => void;
  /** The 401 ending of SPEC §4 (see endSession). */
  expire: (why: SessionEnd) => void;
  /** A refresh stored a new access token. */
  refreshed: (accessToken: string, refreshToken?: string) => void;
  /** The reason was shown; forget it. */
  ackEnded: () => void;
}

/** `expired`: a 401 with no refresh token; `refreshFailed`: the refresh itself was refused or failed. */
export type SessionEnd = 'expired' | 'refreshFailed';

export const useSession = create<SessionState>((set) => ({
  accessToken: local.get(STORAGE_KEYS.accessToken),
  loggedOut: false,
  ended: null,
  refreshes: 0,
  agreements: { service: false, privacy: false },
  isSignupCompleted: false,
  setTokens: (accessToken, refreshToken) => {
    local.set(STORAGE_KEYS.accessToken, accessToken);
    if (refreshToken) local.set(STORAGE_KEYS.refreshToken, refreshToken);
    set({ accessToken, loggedOut: false, ended: null });
  },
  setAgreements: (agreements) => set({ agreements }),
  setSignupCompleted: (isSignupCompleted) => set({ isSignupCompleted }),
  resetSignup: () => set({ agreements: { service: false, privacy: false }, isSignupCompleted: false }),
  clear: () => {
    clearStoredSession();
    set({ accessToken: null, loggedOut: true, ended: null });
  },
  expire: (why) => {
    // SPEC §4 removes the access token; the refresh token is spent or refused too. The language stays.
    local.remove(STORAGE_KEYS.accessToken);
    local.remove(STORAGE_KEYS.refreshToken);
    local.remove(STORAGE_KEYS.userInfo);
    set({ accessToken: null, ended: why });
  },
  refreshed: (accessToken, refreshToken) => {
    local.set(STORAGE_KEYS.accessToken, accessToken);
    if (refreshToken) local.set(STORAGE_KEYS.refreshToken, refreshToken);
    set((st) => ({ accessToken, refreshes: st.refreshes + 1 }));
  },
  ackEnded: () => set({ ended: null }),
}));

/**
 * The logout of SPEC §4 (local only, no call): removes both tokens, userInfo and the saved /myinfo tab. The
 * language the member chose stays: it is the device's setting, not the session's.
 */
export function clearStoredSession(): void {
  local.remove(STORAGE_KEYS.accessToken);
  local.remove(STORAGE_KEYS.refreshToken);
  local.remove(STORAGE_KEYS.userInfo);
  session.remove(STORAGE_KEYS.myInfoActiveTab);
}
