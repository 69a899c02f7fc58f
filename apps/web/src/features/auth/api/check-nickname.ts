import { api } from '../../../lib/api-client';

/** POST /api/v1/members/check-nickname (SPEC §7): true when the nickname is free. Throws ApiError. */
export async function checkNickname(nickname: string): Promise<boolean> {
  const data = await api.post<{ available: boolean }>('/api/v1/members/check-nickname', { nickname });
  return data.available;
}
