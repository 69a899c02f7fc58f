import { create } from 'zustand';
import { session } from '../../../lib/storage';

/**
 * The operator's tokens, kept apart from the member session (storage keys opsAccessToken / opsRefreshToken)
 * so that a member logged in the same browser is neither used nor disturbed by the console. sessionStorage:
 * operator rights end with the browser tab instead of lasting the refresh token's 14 days on a shared machine.
 */
export const OPS_STORAGE_KEYS = {
  accessToken: 'opsAccessToken',
  refreshToken: 'opsRefreshToken',
} as const;

/** Why the console sent the operator back to /ops/login (shown there once). */
export type OpsEndReason = 'expired' | 'forbidden' | null;

interface OpsSessionState {
  accessToken: string | null;
  endReason: OpsEndReason;
  setTokens: (accessToken: string, refreshToken?: string) => void;
  /** Removes both ops tokens (never the member's) and remembers why. */
  end: (reason: OpsEndReason) => void;
}

export const useOpsSession = create<OpsSessionState>((set) => ({
  accessToken: session.get(OPS_STORAGE_KEYS.accessToken),
  endReason: null,
  setTokens: (accessToken, refreshToken) => {
    session.set(OPS_STORAGE_KEYS.accessToken, accessToken);
    if (refreshToken) session.set(OPS_STORAGE_KEYS.refreshToken, refreshToken);
    set({ accessToken, endReason: null });
  },
  end: (endReason) => {
    session.remove(OPS_STORAGE_KEYS.accessToken);
    session.remove(OPS_STORAGE_KEYS.refreshToken);
    set({ accessToken: null, endReason });
  },
}));
