import { DISPUTE_STATEMENT_MAX, disputeStatementError } from '@p2p/contract/dispute-rules.ts';
import { DISPUTE_REASONS, type DisputeReason } from '@p2p/contract/market.ts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import ui from '../../../components/ui/ui.module.css';
import s from '../trade.module.css';
import { ProtocolDialog } from './ProtocolDialog';

/**
 * Opening a dispute (DECISIONS §11): a reason from the fixed list and a statement of 10-2000 characters;
 * in `statement` mode (the other party opened it) only the statement, sent with the dispute's reason.
 */
export function DisputeSheet({
  open,
  mode,
  fixedReason,
  orderId,
  busy,
  onSubmit,
  onClose,
}: {
  open: boolean;
  mode: 'open' | 'statement';
  fixedReason: DisputeReason | null;
  orderId: number;
  busy: boolean;
  onSubmit: (reason: DisputeReason, statement: string) => Promise<boolean>;
  onClose: () => void;
}) {
  const { t } = useTranslation('trade');
  const [reason, setReason] = useState<DisputeReason | ''>(fixedReason ?? '');
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  const reasonId = useId();
  const textId = useId();
  const err = disputeStatementError(text);
  const chosen = mode === 'statement' ? (fixedReason ?? 'OTHER') : reason;
  return (
    <ProtocolDialog
      open={open}
      title={t(mode === 'open' ? 'protocol.dispute.title' : 'protocol.dispute.statementTitle', {
        id: orderId,
      })}
      confirmLabel={t('protocol.dispute.submit')}
      cancelLabel={t('common:actions.cancel')}
      busy={busy}
      disabled={!chosen}
      onConfirm={async () => {
        setTouched(true);
        if (!chosen || err) return false;
        return onSubmit(chosen, text.trim());
      }}
      onClose={onClose}
      testId="dispute-sheet"
    >
      <p className={s.dialogText}>{t('protocol.dispute.intro')}</p>
      {mode === 'open' && (
        <div className={ui.field}>
          <label className={ui.label} htmlFor={reasonId}>
            {t('protocol.dispute.reason')}
          </label>
          <select
            id={reasonId}
            className={ui.input}
            value={reason}
            onChange={(e) => setReason(e.target.value as DisputeReason)}
            data-testid="dispute-reason"
          >
            <option value="" disabled>
              {t('protocol.dispute.choose')}
            </option>
            {DISPUTE_REASONS.map((r) => (
              <option key={r} value={r}>
                {t(`protocol.reasons.${r}`)}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className={ui.field}>
        <label className={ui.label} htmlFor={textId}>
          {t('protocol.dispute.statement')}
        </label>
        <textarea
          id={textId}
          className={`${ui.input} ${s.textarea} ${touched && err ? ui.inputError : ''}`}
          rows={5}
          maxLength={DISPUTE_STATEMENT_MAX}
          value={text}
          placeholder={t('protocol.dispute.placeholder')}
          onChange={(e) => setText(e.target.value)}
          onBlur={() => setTouched(true)}
          aria-invalid={touched && err ? true : undefined}
          data-testid="dispute-statement"
        />
        <div className={`${ui.message} ${touched && err ? ui.messageError : ''}`}>
          {touched && err
            ? t(`protocol.dispute.errors.${err}`)
            : t('protocol.dispute.count', { n: text.trim().length, max: DISPUTE_STATEMENT_MAX })}
        </div>
      </div>
    </ProtocolDialog>
  );
}
