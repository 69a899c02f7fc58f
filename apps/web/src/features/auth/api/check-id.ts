import { api } from '../../../lib/api-client';

/** POST /api/v1/members/check-id (SPEC §7): true when the ID is free. Throws ApiError. */
export async function checkLoginId(loginId: string): Promise<boolean> {
  const data = await api.post<{ available: boolean }>('/api/v1/members/check-id', { loginId });
  return data.available;
}
