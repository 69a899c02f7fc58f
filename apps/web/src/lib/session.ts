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
  agreements: { service: boolean; privacy: boolean };
  isSignupCompleted: boolean;
  setTokens: (accessToken: string, refreshToken?: string) => void;
  setAgreements: (a: { service: boolean; privacy: boolean }) => void;
  setSignupCompleted: (done: boolean) => void;
  resetSignup: () => void;
  clear: () => void;
}

export const useSession = create<SessionState>((set) => ({
  accessToken: local.get(STORAGE_KEYS.accessToken),
  loggedOut: false,
  agreements: { service: false, privacy: false },
  isSignupCompleted: false,
  setTokens: (accessToken, refreshToken) => {
    local.set(STORAGE_KEYS.accessToken, accessToken);
    if (refreshToken) local.set(STORAGE_KEYS.refreshToken, refreshToken);
    set({ accessToken, loggedOut: false });
  },
  setAgreements: (agreements) => set({ agreements }),
  setSignupCompleted: (isSignupCompleted) => set({ isSignupCompleted }),
  resetSignup: () => set({ agreements: { service: false, privacy: false }, isSignupCompleted: false }),
  clear: () => {
    clearStoredSession();
    set({ accessToken: null, loggedOut: true });
  },
}));

/**
 * The logout of SPEC §4 (local only, no call): removes both tokens, userInfo, the stored language and the
 * saved /myinfo tab.
 */
export function clearStoredSession(): void {
  local.remove(STORAGE_KEYS.accessToken);
  local.remove(STORAGE_KEYS.refreshToken);
  local.remove(STORAGE_KEYS.userInfo);
  local.remove(STORAGE_KEYS.language);
  session.remove(STORAGE_KEYS.myInfoActiveTab);
}
