import { api } from './api-client';

/**
 * POST /sms/request (SPEC §7, DECISIONS §6): sends a 6-digit code. Without a bearer token the code is for
 * signup; with one for the member's own checks (modify, purchase). Resolves the code's lifetime in seconds.
 */
export async function requestSmsCode(body: {
  phone?: string;
  purpose?: 'reset';
  loginId?: string;
}): Promise<number | null> {
  const data = await api.post<{ expiresInSec?: number } | null>('/sms/request', body);
  return typeof data?.expiresInSec === 'number' ? data.expiresInSec : null;
}

/** POST /sms/verify: throws ApiError CODE_EXPIRED / CODE_MISMATCH / CODE_TRIES_EXCEEDED. */
export async function verifySmsCode(phone: string, code: string): Promise<void> {
  await api.post('/sms/verify', { phone, code });
}
