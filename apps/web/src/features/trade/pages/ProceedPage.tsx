import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Page } from '../../../components/layout/Page';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { TextField } from '../../../components/ui/TextField';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import { completeBuyOrder } from '../api/complete-buy-order';
import { tradeErrorText } from '../error-text';
import { canSubmitProceed, normalizeTxid, txidError } from '../proceed-rules';
import s from '../trade.module.css';

function orderIdOf(state: unknown): number | null {
  if (typeof state !== 'object' || state === null || !('orderId' in state)) return null;
  const id = (state as { orderId: unknown }).orderId;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * /proceed (SPEC §2, §5 "Proceed"): the seller enters the TxID of the coins sent (trimmed, required) and
 * their password (the step-up of DECISIONS §13: releasing escrow cannot be undone), then completes the
 * order. Needs the order id from /view_details, else 주문 정보가 없습니다. and /myinfo.
 */
export default function ProceedPage() {
  const { t } = useTranslation('trade');
  const navigate = useNavigate();
  const qc = useQueryClient();
  const orderId = orderIdOf(useLocation().state);
  const [txid, setTxid] = useState('');
  const [touched, setTouched] = useState(false);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | undefined>();
  const [submitting, setSubmitting] = useState(false);
  const warned = useRef(false);
  useEffect(() => {
    if (orderId !== null || warned.current) return;
    warned.current = true;
    notify.error(t('proceed.missingOrder'));
    navigate(paths.myInfo.path, { replace: true });
  }, [orderId, navigate, t]);
  if (orderId === null) return null;

  const error = touched ? txidError(txid) : undefined;
  const submit = async () => {
    setTouched(true);
    if (txidError(txid)) {
      notify.error(t('proceed.errors.TXID_REQUIRED'));
      return;
    }
    if (!password) {
      setPasswordError(t('proceed.errors.PASSWORD_REQUIRED'));
      return;
    }
    setSubmitting(true);
    try {
      await completeBuyOrder(orderId, normalizeTxid(txid), { password });
      notify.success(t('proceed.success'));
      await qc.invalidateQueries();
      navigate(paths.myInfo.path, { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'INVALID_CREDENTIALS') {
        setPasswordError(t('common:stepUp.wrongPassword'));
      }
      notify.error(
        err instanceof ApiError && err.code === 'INVALID_CREDENTIALS'
          ? t('common:stepUp.wrongPassword')
          : tradeErrorText(err, 'trade:proceed.failed'),
      );
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Page title={t('proceed.title')}>
      <Card className={s.form}>
        <h2 className={s.sectionTitle}>{t('proceed.heading')}</h2>
        <p className={s.muted} style={{ margin: '0 0 8px', wordBreak: 'keep-all' }}>
          {t('proceed.description')}
        </p>
        <TextField
          label={t('proceed.txid')}
          value={txid}
          placeholder={t('proceed.placeholder')}
          autoComplete="off"
          spellCheck={false}
          maxLength={128}
          onChange={(e) => setTxid(e.target.value)}
          onBlur={() => setTouched(true)}
          error={error ? t(`proceed.errors.${error}`) : undefined}
          data-testid="proceed-txid"
        />
        <TextField
          label={t('proceed.password')}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            setPasswordError(undefined);
          }}
          error={passwordError}
          hint={t('proceed.passwordHint')}
          data-testid="proceed-password"
        />
      </Card>
      <Button
        block
        onClick={() => void submit()}
        disabled={!canSubmitProceed(txid, submitting) || !password}
        data-testid="proceed-submit"
      >
        {submitting ? t('proceed.submitting') : t('proceed.submit')}
      </Button>
    </Page>
  );
}
