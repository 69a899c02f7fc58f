import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { meQueryOptions } from '../../../lib/me';
import { notifyRefusal } from '../../../lib/refusal';
import { notify } from '../../../lib/toast';
import { bankAccountQueryOptions } from '../api/bank-account';
import { kycQueryOptions } from '../api/kyc';

/**
 * One verification-center action at a time: runs it, toasts `done` (or the refusal with its step), then
 * refetches the level, the bank state and the profile. Resolves true on success.
 */
export function useKycRun() {
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  const run = async (f: () => Promise<unknown>, done: string): Promise<boolean> => {
    setBusy(true);
    try {
      await f();
      notify.success(done);
      await Promise.all([
        qc.invalidateQueries(kycQueryOptions()),
        qc.invalidateQueries(bankAccountQueryOptions()),
        qc.invalidateQueries(meQueryOptions()),
      ]);
      return true;
    } catch (err) {
      notifyRefusal(err, 'common:errors.INTERNAL_ERROR');
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}
