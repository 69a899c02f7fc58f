import type {
  BankAccountState,
  BankVerifyRequestBody,
  BankVerifyRequestOut,
  VerifiedBankAccount,
} from '@p2p/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /api/v1/bank-account (DECISIONS §19): the verified account, the open 1원 request, the policy. */
export const bankAccountQueryOptions = () =>
  queryOptions({
    queryKey: ['bank-account'],
    queryFn: () => api.get<BankAccountState>('/api/v1/bank-account'),
  });

export const useBankAccount = () => useQuery(bankAccountQueryOptions());

/** POST /api/v1/bank-account/verify/request: the bank sends 1 KRW whose depositor name carries the code. */
export const requestBankCode = (body: BankVerifyRequestBody) =>
  api.post<BankVerifyRequestOut>('/api/v1/bank-account/verify/request', body);

/** POST /api/v1/bank-account/verify: the 4-digit code from the depositor name. */
export const verifyBankCode = (code: string) =>
  api.post<VerifiedBankAccount>('/api/v1/bank-account/verify', { code });
