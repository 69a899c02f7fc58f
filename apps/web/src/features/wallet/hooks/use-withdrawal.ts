import type { StepUp, Wallet } from '@p2p/contract';
import { useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import i18n from '../../../i18n';
import { ApiError } from '../../../lib/api-client';
import { errorText, fieldText } from '../../../lib/errors';
import { notify } from '../../../lib/toast';
import { getTransferRecipient } from '../api/get-recipient';
import { useRequestTransfer } from '../api/request-transfer';
import { canWithdraw, parseDestTag, plainAmount, type WithdrawValues } from '../withdraw-rules';

/**
 * A refusal other than a wrong password, the review sheet already closed: a refused destination tag or
 * address is shown under its field (until it changes), anything else as a toast.
 */
function showRefusal(err: unknown, form: UseFormReturn<WithdrawValues>): void {
  if (err instanceof ApiError && err.fields.destTag) {
    form.setError('destTag', { type: 'server', message: fieldText(err.fields.destTag) });
    return;
  }
  if (
    err instanceof ApiError &&
    err.code === 'WALLET_NOT_FOUND' &&
    form.getValues('destType') === 'INTERNAL'
  ) {
    // 내부 지갑 never quietly becomes an outside withdrawal: say what the address is not, and where to go
    form.setError('address', { type: 'server', message: i18n.t('wallet:withdraw.notMember') });
    return;
  }
  if (
    err instanceof ApiError &&
    ['INVALID_ADDRESS', 'WALLET_NOT_FOUND', 'SELF_TRANSFER'].includes(err.code)
  ) {
    form.setError('address', { type: 'server', message: errorText(err, 'wallet:withdraw.failed', 'trade') });
    return;
  }
  notify.error(errorText(err, 'wallet:withdraw.failed', 'trade'));
}

/**
 * The receiving member of an internal transfer (the 내부 지갑 tab, or XRP's platform account, which names a
 * member by the tag), looked up before the review opens so the sheet names them before the password is
 * asked. `run` resolves false when the lookup refused (no member there, the own wallet...): the reason is then
 * shown at the field (showRefusal) and the review stays closed. Other destinations have nobody to name.
 */
function useRecipientLookup(wallet: Wallet, form: UseFormReturn<WithdrawValues>, tag: number | null) {
  const [recipient, setRecipient] = useState<string | null>(null);
  const [looking, setLooking] = useState(false);
  const { destType, address } = form.watch();
  const internal =
    destType === 'INTERNAL' || (wallet.coinCode === 'XRP' && address.trim() === wallet.address);
  const run = async (): Promise<boolean> => {
    setRecipient(null);
    if (!internal) return true;
    setLooking(true);
    try {
      setRecipient((await getTransferRecipient(wallet.coinCode, address.trim(), tag)).nickname);
      return true;
    } catch (err) {
      showRefusal(err, form);
      return false;
    } finally {
      setLooking(false);
    }
  };
  return { recipient: internal ? recipient : null, looking, run };
}

/**
 * /withdraw's sending (DECISIONS §5, §13 step-up, §17): `openReview` opens the review sheet when the form is
 * ready (an internal transfer first looks up the receiving member, whom the sheet names); `confirm` asks
 * for the password, then POSTs the transfer and goes back to the wallet with a toast.
 * A wrong password stays in the sheet; a refused address or destination tag closes it and shows the reason
 * under that field; anything else closes it with a toast.
 */
export function useWithdrawal(wallet: Wallet, form: UseFormReturn<WithdrawValues>) {
  const { t } = useTranslation('wallet');
  const navigate = useNavigate();
  const send = useRequestTransfer();
  const [reviewing, setReviewing] = useState(false);
  const { setValue, watch, setError, clearErrors } = form;
  const { destType, address, amount, password, destTag = '' } = watch();
  const isXrp = wallet.coinCode === 'XRP';
  const tag = isXrp ? (parseDestTag(destTag) ?? null) : null;
  const lookup = useRecipientLookup(wallet, form, tag);
  const ready = canWithdraw(amount, wallet.balance, address, send.isPending, wallet.coinCode, destTag);
  const setPasswordError = (message: string) => setError('password', { type: 'server', message });

  const submit = async (stepUp: StepUp) => {
    if (!ready) return;
    try {
      const sent = await send.mutateAsync({
        fromWalletId: wallet.id,
        destType,
        amount: plainAmount(amount),
        destInternalAddress: destType === 'INTERNAL' ? address.trim() : null,
        destExternalAddress: destType === 'EXTERNAL' ? address.trim() : null,
        ...(isXrp ? { destTag: tag } : {}),
        stepUp,
      });
      // XRP to the platform account with a member's tag is done internally whichever destination was picked.
      notify.success(t(sent.destType === 'INTERNAL' ? 'withdraw.sent' : 'withdraw.requested'));
      navigate(paths.wallet.path, { replace: true, state: { walletId: wallet.id } });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'INVALID_CREDENTIALS')
        return setPasswordError(t('common:stepUp.wrongPassword'));
      setReviewing(false);
      showRefusal(err, form);
    }
  };

  return {
    ready,
    pending: send.isPending,
    reviewing,
    /** The destination tag as the review shows it: XRP's (null: none), undefined for other coins. */
    reviewTag: isXrp ? tag : undefined,
    /** Whom an internal transfer reaches (masked nickname), shown on the review; null otherwise. */
    recipient: lookup.recipient,
    looking: lookup.looking,
    openReview: async () => {
      if (!ready || lookup.looking) return;
      setValue('password', '');
      clearErrors('password');
      if (await lookup.run()) setReviewing(true);
    },
    closeReview: () => setReviewing(false),
    confirm: () => {
      if (!password) return setPasswordError(t('common:stepUp.required'));
      void submit({ password });
    },
  };
}
