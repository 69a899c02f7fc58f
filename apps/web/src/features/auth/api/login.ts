import type { LoginBody, TokenPair } from '@p2p/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';

/** POST /api/v1/auth/login; stores both tokens (SPEC §4). Throws ApiError (INVALID_CREDENTIALS, ...). */
export async function login(input: LoginBody): Promise<void> {
  const data = await api.post<TokenPair>('/api/v1/auth/login', input);
  useSession.getState().setTokens(data.accessToken, data.refreshToken);
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
