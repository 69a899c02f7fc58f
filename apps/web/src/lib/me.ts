import type { Profile as MemberProfile } from '@p2p/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import { useSession } from './session';
import { STORAGE_KEYS, writeJson } from './storage';

/**
 * The member profile of GET /my as stored in userInfo (SPEC §3): the contract's Profile without the ids and
 * statuses the screens do not keep. Bank fields are empty until set in /modify.
 */
export type Profile = Pick<
  MemberProfile,
  'loginId' | 'nickname' | 'name' | 'countryCode' | 'phoneE164' | 'bankName' | 'accountNo'
>;

interface RawProfile extends Partial<Profile> {
  nickName?: string;
}

/** Accepts `nickname` or `nickName` (SPEC §7 spells the PUT field nickName). */
export function normalizeProfile(raw: RawProfile): Profile {
  return {
    loginId: raw.loginId ?? '',
    nickname: raw.nickname ?? raw.nickName ?? '',
    name: raw.name ?? '',
    countryCode: raw.countryCode ?? '',
    phoneE164: raw.phoneE164 ?? '',
    bankName: raw.bankName ?? null,
    accountNo: raw.accountNo ?? null,
  };
}

/** GET /my; stores the profile as userInfo (SPEC §3). */
export async function getMe(): Promise<Profile> {
  const profile = normalizeProfile(await api.get<RawProfile>('/my'));
  writeJson(STORAGE_KEYS.userInfo, profile);
  return profile;
}

export const meQueryOptions = () =>
  queryOptions({ queryKey: ['me'], queryFn: getMe, retry: false, staleTime: 30_000 });

/**
 * The signed-in member's profile; disabled without an access token. `fresh` reads it from the server each
 * time the screen opens (/account, SPEC §2: the profile shown is the one the server holds now, not a copy
 * up to 30 s old).
 */
export function useMe(o: { fresh?: boolean } = {}) {
  const token = useSession((s) => s.accessToken);
  return useQuery({
    ...meQueryOptions(),
    enabled: Boolean(token),
    ...(o.fresh ? { refetchOnMount: 'always' } : {}),
  });
}
