import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { bankNameOf } from '../../../lib/banks';
import type { Profile } from '../../../lib/me';
import { notifyRefusal } from '../../../lib/refusal';
import { useCreateListing } from '../api/create-listing';
import type { SellReview } from '../components/SellReviewSheet';
import { parsePrice, type SellFields } from '../sell-rules';
import type { ReceiptState } from '../trade-state';

/** The terms as the review sheet shows them: quantities without a trailing dot, the price in whole won. */
function reviewOf(v: SellFields, me: Profile | undefined): SellReview {
  const bankName = bankNameOf(v.bank, v.customBank);
  return {
    coin: v.coin as SellReview['coin'],
    minQty: v.minQty.replace(/\.$/, ''),
    maxQty: v.maxQty.replace(/\.$/, ''),
    unitPriceKrw: parsePrice(v.unitPriceKrw),
    bankName,
    accountNo: v.accountNo,
    accountHolder: me?.name ?? '',
    otherThanProfile: bankName !== me?.bankName || v.accountNo.replace(/-/g, '') !== me?.accountNo,
  };
}

/**
 * The sell form's review and step-up (DECISIONS §13 as amended): `open` shows what will be listed and the
 * account buyers pay into (flagged when it is not the profile's); `confirm` requests the listing with the
 * password and goes to the sell receipt. A wrong password stays in the sheet; any other refusal closes it
 * with a toast. `walletId` is the active wallet of the form's coin (null: nothing to list from).
 */
export function useSellReview(me: Profile | undefined, walletId: number | null) {
  const { t } = useTranslation('trade');
  const navigate = useNavigate();
  const createListing = useCreateListing();
  const [review, setReview] = useState<SellReview | null>(null);
  const [reviewing, setReviewing] = useState(false);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | undefined>(undefined);

  const open = (v: SellFields) => {
    if (walletId === null) return;
    setReview(reviewOf(v, me));
    setPassword('');
    setPasswordError(undefined);
    setReviewing(true);
  };

  const confirm = async () => {
    if (walletId === null || !review || createListing.isPending) return;
    if (!password) return setPasswordError(t('common:stepUp.required'));
    try {
      const listing = await createListing.mutateAsync({
        walletId,
        minQty: review.minQty,
        maxQty: review.maxQty,
        unitPriceKrw: review.unitPriceKrw,
        bankName: review.bankName,
        accountNo: review.accountNo,
        stepUp: { password },
      });
      const receipt: ReceiptState = { kind: 'sell', listing };
      navigate(paths.requestSuccessfully.path, { state: receipt });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'INVALID_CREDENTIALS') {
        setPasswordError(t('common:stepUp.wrongPassword'));
        return;
      }
      setReviewing(false);
      notifyRefusal(err, 'trade:sell.failed', 'trade');
    }
  };

  return {
    busy: createListing.isPending,
    open,
    sheet: {
      open: reviewing,
      review,
      password,
      error: passwordError,
      busy: createListing.isPending,
      onPassword: (value: string) => {
        setPassword(value);
        setPasswordError(undefined);
      },
      onConfirm: () => void confirm(),
      onClose: () => setReviewing(false),
    },
  };
}
