import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { LanguageSelector } from '../../../components/layout/LanguageSelector';
import { Button } from '../../../components/ui/Button';
import { TextField } from '../../../components/ui/TextField';
import { ApiError } from '../../../lib/api-client';
import { errorText } from '../../../lib/errors';
import { notify } from '../../../lib/toast';
import { opsLogin } from '../api/auth';
import { opsQueryRoot } from '../api/query-root';
import { useOpsSession } from '../api/session';
import { opsFromOf } from '../components/RequireOperator';
import s from '../ops.module.css';
import { opsPaths } from '../paths';

/**
 * /ops/login: the normal login call, then GET /my; only an OPERATOR's tokens are kept (as the ops session,
 * apart from any member session). A member's login is refused with a clear message and its tokens dropped.
 * An operator with a second factor (DECISIONS §13) is answered TOTP_REQUIRED: the page then shows a 6-digit
 * code field and sends the code with the same ID and password.
 */
export default function OpsLoginPage() {
  const { t } = useTranslation(['ops', 'common']);
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const token = useOpsSession((st) => st.accessToken);
  const endReason = useOpsSession((st) => st.endReason);
  const [loginId, setLoginId] = useState('');
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState(false);
  const [needsCode, setNeedsCode] = useState(false);
  const [totpCode, setTotpCode] = useState('');
  const codeRef = useRef<HTMLInputElement>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const from = opsFromOf(location.state);
  const target = from?.startsWith(opsPaths.root) && from !== opsPaths.login ? from : opsPaths.root;

  useEffect(() => {
    if (needsCode) codeRef.current?.focus();
  }, [needsCode]);

  if (token && !pending) return <Navigate to={target} replace />;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!loginId.trim() || !password) {
      setFailure(t('ops:login.required'));
      return;
    }
    if (needsCode && !/^\d{6}$/.test(totpCode)) {
      setFailure(t('ops:login.totpFormat'));
      codeRef.current?.focus();
      return;
    }
    setPending(true);
    setFailure(null);
    try {
      const me = await opsLogin(loginId.trim(), password, needsCode ? totpCode : undefined);
      queryClient.removeQueries({ queryKey: opsQueryRoot });
      notify.success(t('ops:login.welcome', { loginId: me.loginId }));
      navigate(target, { replace: true });
    } catch (err) {
      const code = err instanceof ApiError ? err.code : null;
      if (code === 'TOTP_REQUIRED' && !needsCode) {
        // Not a failure: the password was right and this operator also signs in with a code.
        setNeedsCode(true);
        return;
      }
      if (code === 'TOTP_INVALID') {
        setTotpCode('');
        codeRef.current?.focus();
      }
      const text = errorText(err, 'ops:errors.generic', 'ops');
      setFailure(text);
      notify.error(text);
    } finally {
      setPending(false);
    }
  };

  const reasonText = endReason ? t(`ops:login.ended.${endReason}`) : null;
  return (
    <div className={s.loginScreen}>
      <div className={s.loginCard}>
        <div className={s.loginTop}>
          <div className={s.brand}>
            <span className={s.brandMark}>OP</span>
            <span>{t('ops:brand')}</span>
          </div>
          <LanguageSelector />
        </div>
        <h1 className={s.h1}>{t('ops:login.title')}</h1>
        <p className={s.muted}>{t('ops:login.sub')}</p>
        {(failure ?? reasonText) && (
          <p className={s.failure} role="alert" data-testid="ops-login-error">
            {failure ?? reasonText}
          </p>
        )}
        <form className={s.loginForm} onSubmit={onSubmit} noValidate>
          <TextField
            label={t('ops:login.loginId')}
            name="loginId"
            autoComplete="username"
            value={loginId}
            onChange={(e) => setLoginId(e.target.value)}
          />
          <TextField
            label={t('ops:login.password')}
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          {needsCode && (
            <TextField
              ref={codeRef}
              label={t('ops:login.totpCode')}
              hint={t('ops:login.totpHint')}
              name="totpCode"
              autoComplete="one-time-code"
              inputMode="numeric"
              pattern="[0-9]*"
              maxLength={6}
              value={totpCode}
              onChange={(e) => setTotpCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
              data-testid="ops-login-totp"
            />
          )}
          <Button type="submit" block disabled={pending} data-testid="ops-login-submit">
            {pending ? t('ops:login.submitting') : t('ops:login.submit')}
          </Button>
        </form>
        <Link className={s.smallLink} to="/">
          {t('ops:login.memberApp')}
        </Link>
      </div>
    </div>
  );
}
