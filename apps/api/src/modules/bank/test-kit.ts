import type { TestApp } from '../../../test/helpers.ts';

/** Test helpers of the bank module (not a test file). */

/** A member as the kits know them: token and password (for a change's step-up). */
interface Member {
  id: number;
  token: string;
  password: string;
}

/** An address of its own per member, so the per-IP budget of the 1원 request never binds a test's setup. */
export const ipOf = (memberId: number) => `10.77.${(memberId >> 8) & 255}.${memberId & 255}`;

/**
 * The 1원 check through HTTP (DECISIONS §19): request, read the code from the console bank's outbox, verify.
 * Throws with the answer when a step is refused. Returns the verified account's answer.
 */
export async function verifyBankVia(
  t: TestApp,
  m: Member,
  account: { bankName: string; accountNo: string },
): Promise<unknown> {
  const ip = ipOf(m.id);
  const req = await t.call('POST', '/api/v1/bank-account/verify/request', {
    token: m.token,
    ip,
    body: { ...account, stepUp: { password: m.password } },
  });
  if (req.status !== 200) throw new Error(`1원 request refused: ${JSON.stringify(req.body)}`);
  const box = await t.call<{ code: string }>('GET', `/dev/bank/outbox?accountNo=${account.accountNo}`);
  if (box.status !== 200) throw new Error(`no 1원 deposit in the outbox: ${JSON.stringify(box.body)}`);
  const v = await t.call('POST', '/api/v1/bank-account/verify', {
    token: m.token,
    ip,
    body: { code: box.body.returnData.code },
  });
  if (v.status !== 200) throw new Error(`1원 code refused: ${JSON.stringify(v.body)}`);
  return v.body.returnData;
}

/** verifyBankVia unless `account` is already the member's verified account. */
export async function ensureBankVerified(
  t: TestApp,
  m: Member,
  account: { bankName: string; accountNo: string },
): Promise<void> {
  const s = await t.call<{ verified: { bankName: string; accountNo: string } | null }>(
    'GET',
    '/api/v1/bank-account',
    {
      token: m.token,
    },
  );
  const v = s.body.returnData.verified;
  if (v?.bankName === account.bankName && v.accountNo === account.accountNo) return;
  await verifyBankVia(t, m, account);
}
