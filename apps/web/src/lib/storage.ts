/** Browser storage keys of SPEC §3 and small typed helpers around them. */
export const STORAGE_KEYS = {
  accessToken: 'accessToken',
  refreshToken: 'refreshToken',
  userInfo: 'userInfo',
  language: 'language',
  /** sessionStorage: the active /myinfo tab for the browser session. */
  myInfoActiveTab: 'myInfoActiveTab',
  /** TanStack Query persisted cache (prices only), SPEC §3 key `root`. */
  persistedRoot: 'root',
  /** A visitor's purchase click waiting for login (SPEC §2 /login). */
  pendingPurchase: 'pendingPurchase',
} as const;

function safeStorage(kind: 'local' | 'session'): Storage | null {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}

export const local = {
  get: (key: string): string | null => safeStorage('local')?.getItem(key) ?? null,
  set: (key: string, value: string): void => safeStorage('local')?.setItem(key, value),
  remove: (key: string): void => safeStorage('local')?.removeItem(key),
};

export const session = {
  get: (key: string): string | null => safeStorage('session')?.getItem(key) ?? null,
  set: (key: string, value: string): void => safeStorage('session')?.setItem(key, value),
  remove: (key: string): void => safeStorage('session')?.removeItem(key),
};

/** Reads a JSON value from localStorage; null when absent or unparsable. */
export function readJson<T>(key: string): T | null {
  const raw = local.get(key);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown): void {
  local.set(key, JSON.stringify(value));
}
