import { api } from '../../../lib/api-client';

/** POST /api/v1/auth/find-phone: the member's phone, masked (DECISIONS §6). Throws NOT_FOUND_MEMBER_ID. */
export async function findPhone(id: string): Promise<string> {
  const data = await api.post<{ phone: string }>('/api/v1/auth/find-phone', { id });
  return data.phone;
}

/**
 * POST /api/v1/auth/verify-reset-password: a single-use reset ticket. SPEC §3: the ticket may come at the
 * top level or inside returnData; the API client unwraps returnData.
 */
export async function verifyResetCode(input: { id: string; code: string; phone?: string }): Promise<string> {
  const data = await api.post<{ resetTicket: string; expiresInSec: number }>(
    '/api/v1/auth/verify-reset-password',
    input,
  );
  return data.resetTicket;
}

/** POST /api/v1/auth/reset-password. Throws RESET_TICKET_INVALID, VALIDATION_FAILED. */
export async function resetPassword(resetTicket: string, newPassword: string): Promise<void> {
  await api.post('/api/v1/auth/reset-password', { resetTicket, newPassword });
}
