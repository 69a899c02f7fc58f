import type { ModifyBody } from '@p2p/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { meQueryOptions } from '../../../lib/me';

/** PUT /my (SPEC §7; `nickName` spelled as SPEC does). Throws PHONE_NOT_VERIFIED, NICKNAME_TAKEN, ... */
export async function updateMe(body: ModifyBody): Promise<void> {
  await api.put('/my', body);
}

/** Updates the profile and refreshes the cached GET /my. */
export function useUpdateMe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMe,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey }),
  });
}
