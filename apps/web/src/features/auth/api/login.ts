import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';

export interface LoginInput {
  loginId: string;
  password: string;
}

interface LoginResult {
  accessToken: string;
  refreshToken: string;
}

/** POST /api/v1/auth/login; stores both tokens (SPEC §4). Throws ApiError (INVALID_CREDENTIALS, ...). */
export async function login(input: LoginInput): Promise<void> {
  const data = await api.post<LoginResult>('/api/v1/auth/login', input);
  useSession.getState().setTokens(data.accessToken, data.refreshToken);
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
