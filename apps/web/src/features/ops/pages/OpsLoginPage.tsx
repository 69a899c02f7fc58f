import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { LanguageSelector } from '../../../components/layout/LanguageSelector';
import { Button } from '../../../components/ui/Button';
import { TextField } from '../../../components/ui/TextField';
import { notify } from '../../../lib/toast';
import { opsLogin } from '../api/auth';
import { useOpsSession } from '../api/session';
import type { OpsFromState } from '../components/RequireOperator';
import s from '../ops.module.css';
import { opsPaths } from '../paths';
import { opsErrorText } from '../text';

/**
 * /ops/login: the normal login call, then GET /my; only an OPERATOR's tokens are kept (as the ops session,
 * apart from any member session). A member's login is refused with a clear message and its tokens dropped.
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
  const [failure, setFailure] = useState<string | null>(null);
  const from = (location.state as OpsFromState | null)?.from;
  const target = from?.startsWith(opsPaths.root) && from !== opsPaths.login ? from : opsPaths.root;

  if (token && !pending) return <Navigate to={target} replace />;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!loginId.trim() || !password) {
      setFailure(t('ops:login.required'));
      return;
    }
    setPending(true);
    setFailure(null);
    try {
      const me = await opsLogin(loginId.trim(), password);
      queryClient.removeQueries({ queryKey: ['ops'] });
      notify.success(t('ops:login.welcome', { loginId: me.loginId }));
      navigate(target, { replace: true });
    } catch (err) {
      const text = opsErrorText(err);
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
