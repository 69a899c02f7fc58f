import { LIMITS } from '@p2p/contract/limits.ts';
import { maskPhone } from '@p2p/contract/phone.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Page } from '../../../components/layout/Page';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { TextField } from '../../../components/ui/TextField';
import uiStyles from '../../../components/ui/ui.module.css';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { useMe } from '../../../lib/me';
import { notifyRefusal } from '../../../lib/refusal';
import { useSession } from '../../../lib/session';
import { notify } from '../../../lib/toast';
import { formatMmSs } from '../../../lib/use-countdown';
import { usePhoneVerification } from '../../../lib/use-phone-verification';
import { createBuyOrder } from '../api/create-buy-order';
import { tradeListingsKey } from '../api/get-trade-listings';
import { orderViewKeys } from '../api/order-queries';
import s from '../trade.module.css';
import { type ReceiptState, verifyStateOf } from '../trade-state';

/**
 * /verify (SPEC §2, DECISIONS §10): the member's own phone code (at most 6 characters, 120 s), then the buy
 * order is created (POST /buy-orders, valid for 5 minutes after the check) and the receipt shown. Without
 * the purchase state or a session: 'invalid access' and back to /transaction.
 */
export default function VerifyPage() {
  const { t } = useTranslation('trade');
  const location = useLocation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const state = verifyStateOf(location.state);
  const token = useSession((st) => st.accessToken);
  const me = useMe();
  const phone = me.data?.phoneE164 ?? '';
  const pv = usePhoneVerification(LIMITS.smsCodeTtlSec);
  const [code, setCode] = useState('');
  const [ordering, setOrdering] = useState(false);
  // The check is good for 5 minutes (DECISIONS §10); after that a new code is asked for here.
  const [lapsed, setLapsed] = useState(false);
  const rejected = useRef(false);
  const resetCheck = useRef(pv.reset);
  resetCheck.current = pv.reset;
  useEffect(() => {
    if (!pv.verified) return;
    setLapsed(false);
    const id = window.setTimeout(() => {
      resetCheck.current();
      setCode('');
      setLapsed(true);
    }, LIMITS.purchaseVerifyWindowSec * 1000);
    return () => window.clearTimeout(id);
  }, [pv.verified]);

  const invalid = !state || !token || me.isError;
  useEffect(() => {
    if (!invalid || rejected.current) return;
    rejected.current = true;
    notify.error(t('verify.invalidAccess'));
    navigate(paths.transaction.path, { replace: true });
  }, [invalid, navigate, t]);
  if (invalid) return null;

  const placeOrder = async () => {
    setOrdering(true);
    try {
      const order = await createBuyOrder(state.request);
      for (const queryKey of [tradeListingsKey, ...orderViewKeys()]) void qc.invalidateQueries({ queryKey });
      const receipt: ReceiptState = {
        kind: 'purchase',
        order,
        tradeData: state.tradeData,
        purchaseType: state.purchaseType,
      };
      navigate(paths.requestSuccessfully.path, { replace: true, state: receipt });
    } catch (err) {
      // each purchase check allows one order (DECISIONS §11): a spent or stale check needs a new code
      if (err instanceof ApiError && err.code === 'PURCHASE_NOT_VERIFIED') {
        pv.reset();
        setCode('');
        setLapsed(true); // said on the screen, next to the button that gets a new code
        return;
      }
      notifyRefusal(err, 'trade:verify.orderFailed', 'trade');
    } finally {
      setOrdering(false);
    }
  };

  const confirm = async () => {
    if (pv.verified) return placeOrder();
    if (!code.trim()) {
      notify.error(t('common:fields.CODE_REQUIRED'));
      return;
    }
    if (await pv.verify(phone, code)) await placeOrder();
  };

  return (
    <Page title={t('verify.title')}>
      <Card className={s.form}>
        <h2 className={s.sectionTitle}>{t('verify.heading')}</h2>
        <p className={s.muted} style={{ margin: '0 0 8px', wordBreak: 'keep-all' }}>
          {t('verify.description')}
        </p>
        <TextField
          label={t('common:phone.number')}
          value={phone ? maskPhone(phone) : ''}
          readOnly
          aside={
            <Button
              variant="secondary"
              size="small"
              onClick={() => void pv.send(phone)}
              disabled={!phone || pv.sending || pv.verified}
              data-testid="verify-send"
            >
              {pv.sent ? t('common:phone.resend') : t('common:phone.send')}
            </Button>
          }
          data-testid="verify-phone"
        />
        <TextField
          label={t('common:phone.code')}
          value={code}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={LIMITS.smsCodeLength}
          placeholder={t('common:phone.codePlaceholder')}
          onChange={(e) => setCode(e.target.value.slice(0, LIMITS.smsCodeLength))}
          disabled={pv.verified}
          hint={
            pv.verified
              ? t('common:phone.confirmed')
              : lapsed
                ? t('verify.lapsed')
                : pv.sent && !pv.running
                  ? t('verify.codeExpired')
                  : undefined
          }
          hintTone={pv.verified ? 'success' : 'muted'}
          aside={
            <span className={uiStyles.timer} data-testid="verify-timer">
              {pv.running ? formatMmSs(pv.remaining) : ''}
            </span>
          }
          data-testid="verify-code"
        />
      </Card>
      <Button
        block
        onClick={() => void confirm()}
        disabled={ordering || pv.verifying || (!pv.verified && (!pv.sent || !code))}
        data-testid="verify-submit"
      >
        {ordering ? t('verify.submitting') : t('verify.submit')}
      </Button>
    </Page>
  );
}
