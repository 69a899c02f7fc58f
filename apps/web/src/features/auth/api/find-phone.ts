import { api } from '../../../lib/api-client';

/** POST /api/v1/auth/find-phone: the member's phone, masked (DECISIONS §6). Throws NOT_FOUND_MEMBER_ID. */
export async function findPhone(id: string): Promise<string> {
  const data = await api.post<{ phone: string }>('/api/v1/auth/find-phone', { id });
  return data.phone;
}
