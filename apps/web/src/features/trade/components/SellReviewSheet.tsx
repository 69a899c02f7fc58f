import type { Coin } from '@p2p/contract/enums.ts';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button';
import { KeyValue, KeyValueList } from '../../../components/ui/KeyValue';
import { Modal } from '../../../components/ui/Modal';
import { PasswordField } from '../../../components/ui/PasswordField';
import { formatWon } from '../../../lib/format';
import s from '../trade.module.css';

/** What the seller is about to put up, as the sheet shows it (quantities as typed, price in whole won). */
export interface SellReview {
  coin: Coin;
  minQty: string;
  maxQty: string;
  unitPriceKrw: number;
  bankName: string;
  accountNo: string;
  accountHolder: string;
  /** The pay-in account is not the one saved on the profile (the operator's review flags it too). */
  otherThanProfile: boolean;
}

interface Props {
  open: boolean;
  review: SellReview | null;
  password: string;
  error?: string;
  busy: boolean;
  onPassword: (value: string) => void;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * The sell form's step-up (DECISIONS §13 as amended): a bottom sheet, like the withdrawal's review, that
 * shows the terms and the account buyers will pay into, and asks for the member's password before the
 * listing is requested and the maximum quantity goes into escrow.
 */
export function SellReviewSheet({
  open,
  review,
  password,
  error,
  busy,
  onPassword,
  onConfirm,
  onClose,
}: Props) {
  const { t } = useTranslation('trade');
  if (!review) return null;
  return (
    <Modal
      open={open}
      title={t('sell.review.title')}
      onClose={onClose}
      footer={() => (
        <Button block onClick={onConfirm} disabled={busy} data-testid="sell-confirm">
          {busy ? t('sell.review.confirming') : t('sell.review.confirm')}
        </Button>
      )}
    >
      <div className={s.form} data-testid="sell-review">
        <KeyValueList>
          <KeyValue label={t('sell.review.qty')} testId="sell-review-qty">
            {review.minQty} - {review.maxQty} {review.coin}
          </KeyValue>
          <KeyValue label={t('sell.review.price')} testId="sell-review-price">
            {t('won', { value: formatWon(review.unitPriceKrw) })}
          </KeyValue>
          <KeyValue label={t('sell.review.account')} testId="sell-review-account">
            <strong>
              {review.bankName} {review.accountNo}
            </strong>
          </KeyValue>
          <KeyValue label={t('sell.review.holder')} testId="sell-review-holder">
            {review.accountHolder}
          </KeyValue>
        </KeyValueList>
        <p className={s.dialogText}>{t('sell.review.payInto')}</p>
        {review.otherThanProfile && (
          <p className={s.warning} role="note" data-testid="sell-review-other-account">
            {t('sell.review.otherThanProfile')}
          </p>
        )}
        <PasswordField
          label={t('sell.review.passwordLabel')}
          autoComplete="current-password"
          value={password}
          onChange={(e) => onPassword(e.currentTarget.value)}
          onKeyDown={(e) => e.key === 'Enter' && onConfirm()}
          error={error}
          data-testid="sell-password"
        />
      </div>
    </Modal>
  );
}
