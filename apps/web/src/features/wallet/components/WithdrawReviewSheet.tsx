import { type Coin, fromUnits, toUnits } from '@p2p/contract';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button';
import { KeyValue, KeyValueList } from '../../../components/ui/KeyValue';
import { Modal } from '../../../components/ui/Modal';
import { PasswordField } from '../../../components/ui/PasswordField';
import { formatQty } from '../../../lib/format';
import w from '../wallet.module.css';
import type { BeneficiaryInput } from '../withdraw-rules';

interface Props {
  open: boolean;
  busy: boolean;
  coin: Coin;
  address: string;
  /** The receiving member of an internal transfer (masked nickname); null for an outside address. */
  recipient: string | null;
  /** XRP only: the destination tag (null: none); undefined for the other coins, which have no such row. */
  tag: number | null | undefined;
  /** The amount that arrives, a plain decimal string ('' when none is typed yet). */
  amount: string;
  /** The withdrawal fee on top of the amount (DECISIONS §3), a decimal string. */
  fee: string;
  /** DECISIONS §19 Travel Rule: the receiver, when the amount needed one. */
  beneficiary?: BeneficiaryInput;
  password: string;
  passwordError: string | undefined;
  onPassword: (value: string) => void;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * /withdraw's review (DECISIONS §5, §13 step-up): a bottom sheet with the address, the destination tag for
 * XRP, the receiving member of an internal transfer (masked nickname), the amount, the fee, what leaves the
 * balance and what arrives; it says that the sending cannot be undone and asks for the password (Enter
 * confirms too).
 */
export function WithdrawReviewSheet(p: Props) {
  const { t } = useTranslation('wallet');
  const total = p.amount ? fromUnits(toUnits(p.amount) + toUnits(p.fee)) : '0';
  const qty = (q: string) => `${formatQty(q, 8)} ${p.coin}`;
  return (
    <Modal
      open={p.open}
      title={t('withdraw.review.title')}
      onClose={p.onClose}
      footer={() => (
        <Button block onClick={p.onConfirm} disabled={p.busy} data-testid="withdraw-confirm">
          {p.busy ? t('withdraw.review.confirming') : t('withdraw.review.confirm')}
        </Button>
      )}
    >
      <div className={w.form} data-testid="withdraw-review">
        <KeyValueList>
          <KeyValue label={t('withdraw.review.address')} testId="review-address">
            <span className={w.mono}>{p.address}</span>
          </KeyValue>
          {p.recipient !== null && (
            <KeyValue label={t('withdraw.review.recipient')} testId="review-recipient">
              <strong>{p.recipient}</strong>
            </KeyValue>
          )}
          {p.tag !== undefined && (
            <KeyValue label={t('withdraw.review.destTag')} testId="review-dest-tag">
              <span className={w.mono}>{p.tag ?? t('withdraw.review.noTag')}</span>
            </KeyValue>
          )}
          <KeyValue label={t('withdraw.review.amount')} testId="review-amount">
            {qty(p.amount || '0')}
          </KeyValue>
          <KeyValue label={t('withdraw.review.fee')} testId="review-fee">
            {qty(p.fee)}
          </KeyValue>
          <KeyValue label={t('withdraw.review.total')} testId="review-total">
            {qty(total)}
          </KeyValue>
          <KeyValue label={t('withdraw.review.arrives')} testId="review-arrives">
            <strong>{qty(p.amount || '0')}</strong>
          </KeyValue>
          {p.beneficiary && (
            <KeyValue label={t('withdraw.beneficiary.title')} testId="review-beneficiary">
              {p.beneficiary.name} ·{' '}
              {p.beneficiary.kind === 'VASP' ? p.beneficiary.vaspName : t('withdraw.beneficiary.SELF_HOSTED')}
            </KeyValue>
          )}
        </KeyValueList>
        <p className={w.warning} role="note">
          {p.recipient === null
            ? t('withdraw.review.irreversible')
            : t('withdraw.review.irreversibleInternal')}
        </p>
        <PasswordField
          label={t('withdraw.review.passwordLabel')}
          autoComplete="current-password"
          value={p.password}
          onChange={(e) => p.onPassword(e.currentTarget.value)}
          onKeyDown={(e) => e.key === 'Enter' && p.onConfirm()}
          error={p.passwordError}
          data-testid="withdraw-password"
        />
      </div>
    </Modal>
  );
}
