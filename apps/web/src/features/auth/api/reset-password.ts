import { api } from '../../../lib/api-client';

/** POST /api/v1/auth/reset-password. Throws RESET_TICKET_INVALID, VALIDATION_FAILED. */
export async function resetPassword(resetTicket: string, newPassword: string): Promise<void> {
  await api.post('/api/v1/auth/reset-password', { resetTicket, newPassword });
}
