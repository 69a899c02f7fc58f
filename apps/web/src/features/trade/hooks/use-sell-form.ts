import { zodResolver } from '@hookform/resolvers/zod';
import type { Wallet } from '@p2p/contract';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { bankChoiceOf } from '../../../lib/banks';
import type { Profile } from '../../../lib/me';
import { type SellFields, sellSchema } from '../sell-rules';

/**
 * The /sell form (SPEC §5 "Sell"): its fields start with the profile's bank and account, and its rules are
 * checked on submit only, one error at a time, the first broken rule in SPEC order (it stays until the next
 * try or another coin). `walletOf(coin)` is the member's active wallet of that coin, or undefined. After a
 * reload the profile arrives after the first render: its bank and account fill the fields then, unless the
 * member already typed there.
 */
export function useSellForm(me: Profile | undefined, wallets: Wallet[] | undefined) {
  const walletOf = (c: string) => wallets?.find((w) => w.coinCode === c && w.status === 'ACTIVE');
  const initialBank = bankChoiceOf(me?.bankName);
  const form = useForm<SellFields>({
    resolver: (values, context, options) =>
      zodResolver(sellSchema(Boolean(walletOf(values.coin))))(values, context, options),
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    shouldFocusError: false,
    defaultValues: {
      coin: 'BTC',
      minQty: '',
      maxQty: '',
      unitPriceKrw: '',
      bank: initialBank.bank,
      customBank: initialBank.customBank,
      accountNo: me?.accountNo ?? '',
    },
  });
  const bankName = me?.bankName;
  const accountNo = me?.accountNo;
  useEffect(() => {
    const { bank, customBank } = bankChoiceOf(bankName);
    const typed = form.getValues('bank') || form.getValues('accountNo');
    if (typed || !accountNo) return;
    form.setValue('bank', bank);
    form.setValue('customBank', customBank);
    form.setValue('accountNo', accountNo);
  }, [bankName, accountNo, form]);
  return { form, walletOf };
}
