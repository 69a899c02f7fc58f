import type { OpsTotpEnrollment } from '@p2p/contract';
import QRCode from 'qrcode';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { TextField } from '../../../components/ui/TextField';
import { errorText } from '../../../lib/errors';
import { formatTime } from '../../../lib/format-time';
import { notify } from '../../../lib/toast';
import { useConfirmTotp, useEnrollTotp, useTotpStatus } from '../api/totp';
import { PageTitle } from '../components/Table';
import s from '../ops.module.css';

/** The QR of the otpauth URL: large enough for a phone camera at arm's length, error correction M. */
const QR_OPTIONS = { width: 220, margin: 2, errorCorrectionLevel: 'M' } as const;

/** "ABCDEFGH..." -> "ABCD EFGH ..." so the key can be typed into an app without losing one's place. */
function grouped(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * /ops/security (DECISIONS §13): the signed-in operator's two-step sign-in. Off: a button issues a secret,
 * shown as a QR of its otpauth URL and as text for manual entry, and a code from the app turns it on. On:
 * since when, and that only the reset-operator-totp command can turn it off (a lost phone).
 */
export default function SecurityPage() {
  const { t } = useTranslation(['ops']);
  const status = useTotpStatus();
  const enroll = useEnrollTotp();
  const confirm = useConfirmTotp();
  const [enrollment, setEnrollment] = useState<OpsTotpEnrollment | null>(null);
  const [qr, setQr] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const url = enrollment?.otpauthUrl;

  useEffect(() => {
    setQr(null);
    if (!url) return;
    let live = true;
    void QRCode.toDataURL(url, QR_OPTIONS).then((data) => live && setQr(data));
    return () => {
      live = false;
    };
  }, [url]);

  const start = () =>
    enroll.mutate(undefined, {
      onSuccess: (e) => {
        setEnrollment(e);
        setCode('');
        setCodeError(undefined);
      },
      onError: (err) => notify.error(errorText(err, 'ops:errors.generic', 'ops')),
    });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!/^\d{6}$/.test(code)) {
      setCodeError(t('ops:security.codeFormat'));
      return;
    }
    setCodeError(undefined);
    confirm.mutate(code, {
      onSuccess: () => {
        setEnrollment(null);
        notify.success(t('ops:security.enabledToast'));
      },
      onError: (err) => {
        setCode('');
        setCodeError(errorText(err, 'ops:errors.generic', 'ops'));
      },
    });
  };

  const st = status.data;
  return (
    <>
      <PageTitle title={t('ops:security.title')} sub={t('ops:security.sub')} />
      {status.isError && (
        <p className={s.failure} role="alert">
          {errorText(status.error, 'ops:errors.generic', 'ops')}
        </p>
      )}
      {st && (
        <Card className={s.securityCard} data-testid="totp-status" data-enrolled={st.enrolled}>
          <div className={s.securityHead}>
            <h2 className={s.h2}>{t('ops:security.totp')}</h2>
            <span className={`${s.badge} ${st.enrolled ? s.badge_ok : s.badge_warn}`}>
              {st.enrolled ? t('ops:security.on') : t('ops:security.off')}
            </span>
          </div>
          {st.enrolled ? (
            <>
              <p className={s.note}>{t('ops:security.onSince', { time: formatTime(st.confirmedAt) })}</p>
              <p className={s.muted}>{t('ops:security.resetHint')}</p>
            </>
          ) : (
            !enrollment && (
              <>
                <p className={s.note}>{t('ops:security.offText')}</p>
                <Button onClick={start} disabled={enroll.isPending} data-testid="totp-start">
                  {enroll.isPending ? t('ops:actions.working') : t('ops:security.start')}
                </Button>
              </>
            )
          )}
        </Card>
      )}
      {enrollment && !st?.enrolled && (
        <Card className={s.securityCard} data-testid="totp-enrollment">
          <ol className={s.steps}>
            <li>
              <p className={s.note}>{t('ops:security.step1')}</p>
              <div className={s.qrFrame}>
                {qr ? (
                  <img
                    src={qr}
                    width={QR_OPTIONS.width}
                    height={QR_OPTIONS.width}
                    alt={t('ops:security.qrAlt')}
                  />
                ) : (
                  <span className={s.muted}>{t('ops:security.qrLoading')}</span>
                )}
              </div>
            </li>
            <li>
              <p className={s.note}>{t('ops:security.step2')}</p>
              <code className={s.secret} data-testid="totp-secret">
                {grouped(enrollment.secret)}
              </code>
            </li>
            <li>
              <p className={s.note}>{t('ops:security.step3')}</p>
              <form className={s.loginForm} onSubmit={submit} noValidate>
                <TextField
                  label={t('ops:security.code')}
                  name="totpCode"
                  autoComplete="one-time-code"
                  inputMode="numeric"
                  pattern="[0-9]*"
                  maxLength={6}
                  value={code}
                  error={codeError}
                  hint={t('ops:security.confirmHint')}
                  onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
                  data-testid="totp-code"
                />
                <Button type="submit" block disabled={confirm.isPending} data-testid="totp-confirm">
                  {confirm.isPending ? t('ops:actions.working') : t('ops:security.confirm')}
                </Button>
              </form>
            </li>
          </ol>
        </Card>
      )}
    </>
  );
}
