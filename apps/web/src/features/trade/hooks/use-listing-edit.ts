import { repriceNeedsReview, type SellListingDetail, toUnits } from '@p2p/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { errorText } from '../../../lib/errors';
import { formatQty, formatWon } from '../../../lib/format';
import { notify } from '../../../lib/toast';
import { usePrices } from '../../home/api/get-prices';
import { editListing } from '../api/edit-listing';
import { parsePrice, sanitizePrice, sanitizeSellQty } from '../sell-rules';

export interface ListingEditFields {
  minQty: string;
  maxQty: string;
  price: string;
}

/** The first broken rule of the edit form (texts in trade:sell.errors), or undefined. */
function editError(f: ListingEditFields): string | undefined {
  const min = f.minQty.replace(/\.$/, '');
  const max = f.maxQty.replace(/\.$/, '');
  if (!min || !max || !f.price) return 'REQUIRED_FIELDS';
  if (toUnits(min) <= 0n || toUnits(max) <= 0n || parsePrice(f.price) <= 0) return 'NOT_POSITIVE';
  if (toUnits(min) > toUnits(max)) return 'MIN_ABOVE_MAX';
  return undefined;
}

/**
 * The state of the listing edit sheet (PATCH /api/v1/sell-listings/{id}): the fields prefilled with the
 * listing's terms, the password step-up, whether the new price sends the listing back to review (more than
 * 10% from the market, said before confirming), and `save`, which refreshes the listing on success.
 */
export function useListingEdit(listing: SellListingDetail) {
  const { t } = useTranslation('trade');
  const qc = useQueryClient();
  const initial = {
    minQty: formatQty(listing.minQty).replace(/,/g, ''),
    maxQty: formatQty(listing.maxQty).replace(/,/g, ''),
    price: formatWon(listing.unitPriceKrw),
  };
  const [fields, setFields] = useState<ListingEditFields>(initial);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const market = usePrices().data?.prices.find((p) => p.coin === listing.coinCode)?.krw ?? null;
  const price = parsePrice(fields.price);
  const live = listing.status === 'OPEN' || listing.status === 'PAUSED';
  const review = live && price > 0 && price !== listing.unitPriceKrw && repriceNeedsReview(price, market);
  const error = editError(fields);

  const set = (name: keyof ListingEditFields, raw: string) =>
    setFields((f) => ({ ...f, [name]: name === 'price' ? sanitizePrice(raw) : sanitizeSellQty(raw) }));

  const save = async (): Promise<boolean> => {
    if (error || busy) return false;
    if (!password) {
      setPasswordError(t('common:stepUp.required'));
      return false;
    }
    setBusy(true);
    try {
      const body = {
        minQty: fields.minQty.replace(/\.$/, ''),
        maxQty: fields.maxQty.replace(/\.$/, ''),
        unitPriceKrw: price,
        stepUp: { password },
      };
      const saved = await editListing(listing.listingId, body);
      notify.success(t(saved.status === 'PENDING_REVIEW' ? 'edit.doneReview' : 'edit.done'));
      await qc.invalidateQueries();
      return true;
    } catch (err) {
      if (err instanceof ApiError && err.code === 'INVALID_CREDENTIALS') {
        setPasswordError(t('common:stepUp.wrongPassword'));
        return false;
      }
      notify.error(errorText(err, 'trade:edit.failed', 'trade'));
      return true;
    } finally {
      setBusy(false);
    }
  };
  const reset = () => {
    setFields(initial);
    setPassword('');
    setPasswordError(undefined);
  };
  return { fields, set, password, setPassword, passwordError, busy, review, market, error, save, reset };
}
