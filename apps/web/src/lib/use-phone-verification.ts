import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from './api-client';
import { errorText } from './errors';
import { requestSmsCode, verifySmsCode } from './sms-api';
import { notify } from './toast';
import { useCountdown } from './use-countdown';

/**
 * Phone verification by SMS code (SPEC §4, §5): send starts the countdown (`ttlSec`); verify checks the
 * code while time remains (else 'Verification code input time has expired.'); reset() (the phone was
 * edited) drops the verification and stops the timer. All outcomes are toasts with the SPEC §8 texts.
 */
export function usePhoneVerification(ttlSec: number) {
  const { t } = useTranslation();
  const countdown = useCountdown();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [verified, setVerified] = useState(false);
  const [sending, setSending] = useState(false);
  const [verifying, setVerifying] = useState(false);

  const send = useCallback(
    async (phoneE164: string, extra: { purpose?: 'reset'; loginId?: string } = {}) => {
      setSending(true);
      try {
        await requestSmsCode({ phone: phoneE164, ...extra });
        setSentTo(phoneE164);
        setVerified(false);
        countdown.start(ttlSec);
        notify.success(t('common:phone.sent'));
        return true;
      } catch (err) {
        const cannotUse = err instanceof ApiError && err.code === 'VALIDATION_FAILED';
        notify.error(
          cannotUse ? t('common:fields.PHONE_INVALID') : errorText(err, 'common:phone.sendFailed'),
        );
        return false;
      } finally {
        setSending(false);
      }
    },
    [countdown, t, ttlSec],
  );

  const verify = useCallback(
    async (phoneE164: string, code: string) => {
      if (!sentTo || sentTo !== phoneE164) {
        notify.error(t('common:phone.sendFirst'));
        return false;
      }
      if (!countdown.running) {
        notify.error(t('common:errors.CODE_EXPIRED'));
        return false;
      }
      setVerifying(true);
      try {
        await verifySmsCode(phoneE164, code.trim());
        setVerified(true);
        countdown.stop();
        notify.success(t('common:phone.confirmed'));
        return true;
      } catch (err) {
        notify.error(errorText(err, 'common:phone.verifyFailed'));
        return false;
      } finally {
        setVerifying(false);
      }
    },
    [countdown, sentTo, t],
  );

  const reset = useCallback(() => {
    setVerified(false);
    setSentTo(null);
    countdown.stop();
  }, [countdown]);

  return {
    send,
    verify,
    reset,
    verified,
    sent: sentTo !== null,
    sending,
    verifying,
    remaining: countdown.remaining,
    running: countdown.running,
  };
}
