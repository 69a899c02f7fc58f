import type { StepUp, Wallet } from '@p2p/contract';
import { useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import i18n from '../../../i18n';
import { ApiError } from '../../../lib/api-client';
import { errorText, fieldText } from '../../../lib/errors';
import { notifyRefusal } from '../../../lib/refusal';
import { notify } from '../../../lib/toast';
import { getTransferRecipient } from '../api/get-recipient';
import { useRequestTransfer } from '../api/request-transfer';
import { useTravelRuleQuote } from '../api/travel-rule-quote';
import {
  beneficiaryOf,
  canWithdraw,
  parseDestTag,
  plainAmount,
  type WithdrawValues,
  withdrawAmountError,
} from '../withdraw-rules';

/**
 * A refusal other than a wrong password, the review sheet already closed: a refused destination tag or
 * address is shown under its field (until it changes), anything else as a toast.
 */
function showRefusal(err: unknown, form: UseFormReturn<WithdrawValues>): void {
  if (err instanceof ApiError && err.code === 'TRAVEL_RULE_INFO_REQUIRED') {
    // the beneficiary step is on this screen (useTravelRule shows it now): the toast says why
    notify.error(errorText(err, 'wallet:withdraw.failed', 'trade'));
    return;
  }
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
  notifyRefusal(err, 'wallet:withdraw.failed', 'trade');
}

/**
 * Whether this withdrawal needs the Travel Rule's beneficiary (DECISIONS §19): an external one whose amount
 * the quote says is worth TRAVEL_RULE_MIN_KRW or more, or one the server refused with
 * TRAVEL_RULE_INFO_REQUIRED (the price moved); `beneficiary` is then what the form holds, if complete.
 */
function useTravelRule(wallet: Wallet, v: WithdrawValues) {
  const [refusedFor, setRefusedFor] = useState<string | null>(null);
  const amount = plainAmount(v.amount);
  const external = v.destType === 'EXTERNAL';
  const quotable = external && amount !== '' && withdrawAmountError(v.amount, wallet.balance) === undefined;
  const quote = useTravelRuleQuote(wallet.coinCode, amount, quotable);
  const needed = quotable && (quote.data?.required === true || refusedFor === amount);
  return {
    needed,
    minKrw: quote.data?.minKrw ?? 1_000_000,
    /** True while the quote for the typed amount is not in yet (the button waits). */
    quoting: quotable && (quote.isFetching || quote.isPending),
    beneficiary: needed ? beneficiaryOf(v) : undefined,
    refused: () => setRefusedFor(amount),
  };
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
  const values = watch();
  const { destType, address, amount, password, destTag = '' } = values;
  const isXrp = wallet.coinCode === 'XRP';
  const tag = isXrp ? (parseDestTag(destTag) ?? null) : null;
  const travelRule = useTravelRule(wallet, values);
  const lookup = useRecipientLookup(wallet, form, tag);
  const ready =
    canWithdraw(amount, wallet.balance, address, send.isPending, wallet.coinCode, destTag) &&
    !travelRule.quoting &&
    (!travelRule.needed || travelRule.beneficiary !== undefined);
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
        ...(travelRule.beneficiary ? { beneficiary: travelRule.beneficiary } : {}),
        stepUp,
      });
      // XRP to the platform account with a member's tag is done internally whichever destination was picked.
      notify.success(t(sent.destType === 'INTERNAL' ? 'withdraw.sent' : 'withdraw.requested'));
      navigate(paths.wallet.path, { replace: true, state: { walletId: wallet.id } });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'INVALID_CREDENTIALS')
        return setPasswordError(t('common:stepUp.wrongPassword'));
      setReviewing(false);
      if (err instanceof ApiError && err.code === 'TRAVEL_RULE_INFO_REQUIRED') travelRule.refused();
      showRefusal(err, form);
    }
  };

  return {
    ready,
    pending: send.isPending,
    reviewing,
    /** DECISIONS §19: whether the beneficiary step shows, and the won value that asks for it. */
    travelRule: { needed: travelRule.needed, minKrw: travelRule.minKrw, beneficiary: travelRule.beneficiary },
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
