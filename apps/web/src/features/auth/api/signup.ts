import type { SignupBody } from '@p2p/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /api/v1/members/signup (SPEC §7). Throws ApiError (PHONE_NOT_VERIFIED, LOGIN_ID_TAKEN, ...). */
export async function signup(body: SignupBody): Promise<void> {
  await api.post('/api/v1/members/signup', body);
}

export function useSignup() {
  return useMutation({ mutationFn: signup });
}
