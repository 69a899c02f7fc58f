import { api } from '../../../lib/api-client';

/**
 * POST /api/v1/auth/verify-reset-password: a single-use reset ticket (valid 10 minutes, DECISIONS §6).
 * Throws CODE_EXPIRED, CODE_MISMATCH, CODE_TRIES_EXCEEDED.
 */
export async function verifyResetCode(input: { id: string; code: string; phone?: string }): Promise<string> {
  const data = await api.post<{ resetTicket: string; expiresInSec: number }>(
    '/api/v1/auth/verify-reset-password',
    input,
  );
  return data.resetTicket;
}
