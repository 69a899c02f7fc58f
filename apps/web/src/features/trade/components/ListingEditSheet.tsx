import type { SellListingDetail } from '@p2p/contract';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button';
import { Modal } from '../../../components/ui/Modal';
import { PasswordField } from '../../../components/ui/PasswordField';
import { TextField } from '../../../components/ui/TextField';
import { formatWon } from '../../../lib/format';
import { useListingEdit } from '../hooks/use-listing-edit';
import s from '../trade.module.css';

/** The sheet's fields: quantities, price with the market beside it, the review warning, the password. */
function EditFields({ e, coin }: { e: ReturnType<typeof useListingEdit>; coin: string }) {
  const { t } = useTranslation('trade');
  return (
    <div className={s.form} data-testid="listing-edit">
      <div className={s.row2}>
        <TextField
          label={t('sell.minQty')}
          inputMode="decimal"
          value={e.fields.minQty}
          onChange={(ev) => e.set('minQty', ev.currentTarget.value)}
          aside={<span className={s.muted}>{coin}</span>}
          data-testid="edit-min"
        />
        <TextField
          label={t('sell.maxQty')}
          inputMode="decimal"
          value={e.fields.maxQty}
          onChange={(ev) => e.set('maxQty', ev.currentTarget.value)}
          aside={<span className={s.muted}>{coin}</span>}
          data-testid="edit-max"
        />
      </div>
      <TextField
        label={t('sell.unitPrice')}
        inputMode="numeric"
        value={e.fields.price}
        onChange={(ev) => e.set('price', ev.currentTarget.value)}
        hint={e.market ? t('edit.market', { value: formatWon(e.market) }) : undefined}
        error={e.error ? t(`sell.errors.${e.error}`) : undefined}
        aside={<span className={s.muted}>{t('wonUnit')}</span>}
        data-testid="edit-price"
      />
      {e.review && (
        <p className={s.warning} role="note" data-testid="edit-review-warning">
          {t('edit.reviewWarning')}
        </p>
      )}
      <p className={s.dialogText}>{t('edit.escrowNote', { coin })}</p>
      <PasswordField
        label={t('sell.review.passwordLabel')}
        autoComplete="current-password"
        value={e.password}
        onChange={(ev) => e.setPassword(ev.currentTarget.value)}
        error={e.passwordError}
        data-testid="edit-password"
      />
    </div>
  );
}

/**
 * The seller's edit of an active listing's price and quantities (PATCH /api/v1/sell-listings/{id}): a
 * bottom sheet prefilled with the terms, the market price beside the price, a warning before confirming
 * when the new price sends the listing back to review, and the password step-up (DECISIONS §13).
 */
export function ListingEditSheet({
  listing,
  open,
  onClose,
}: {
  listing: SellListingDetail;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('trade');
  const e = useListingEdit(listing);
  const close = () => {
    e.reset();
    onClose();
  };
  const coin = listing.coinCode;
  return (
    <Modal
      open={open}
      title={t('edit.title')}
      onClose={close}
      footer={(done) => (
        <Button
          block
          disabled={e.busy || Boolean(e.error)}
          onClick={() => void e.save().then((ok) => ok && done())}
          data-testid="edit-confirm"
        >
          {e.busy ? t('edit.saving') : t('edit.confirm')}
        </Button>
      )}
    >
      <EditFields e={e} coin={coin} />
    </Modal>
  );
}
