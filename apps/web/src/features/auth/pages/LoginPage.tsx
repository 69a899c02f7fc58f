import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { loginFromOf } from '../../../app/guards';
import { Page } from '../../../components/layout/Page';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { PasswordField } from '../../../components/ui/PasswordField';
import { TextField } from '../../../components/ui/TextField';
import { paths } from '../../../config/paths';
import { errorText } from '../../../lib/errors';
import { getMe, meQueryOptions } from '../../../lib/me';
import { hasPendingPurchase, takePendingPurchase } from '../../../lib/pending-purchase';
import { useSession } from '../../../lib/session';
import { notify } from '../../../lib/toast';
import { useLogin } from '../api/login';
import s from '../auth.module.css';

/**
 * /login (SPEC §2): on success stores the tokens, loads the profile (a failure there is not fatal), then
 * resumes a visitor's pending purchase, else returns to the guarded page that sent us here, else goes home,
 * always replacing history.
 */
export default function LoginPage() {
  const { t } = useTranslation(['auth', 'common']);
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const loginMutation = useLogin();
  const [loginId, setLoginId] = useState('');
  const [password, setPassword] = useState('');
  const ended = useSession((st) => st.ended);
  // Why the member is here (SPEC §8): the server ended the session, or a guarded page or a purchase needs a login.
  const sentHere = loginFromOf(location.state) !== undefined || hasPendingPurchase();
  const reason = ended
    ? [ended === 'refreshFailed' ? t('common:errors.REFRESH_TOKEN_INVALID') : '', t('common:auth.expired')]
        .filter(Boolean)
        .join(' ')
    : sentHere
      ? t('common:auth.loginRequired')
      : '';

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!loginId.trim() || !password) {
      notify.error(t('auth:login.required'));
      return;
    }
    try {
      await loginMutation.mutateAsync({ loginId: loginId.trim(), password });
    } catch (err) {
      notify.error(errorText(err, 'auth:login.failed'));
      return;
    }
    await queryClient
      .fetchQuery({ queryKey: meQueryOptions().queryKey, queryFn: getMe })
      .catch(() => undefined);
    const pending = takePendingPurchase();
    if (pending) {
      navigate(paths.purchase.path, {
        replace: true,
        state: { tradeData: pending.tradeData, purchaseType: pending.purchaseType },
      });
      return;
    }
    const from = loginFromOf(location.state);
    if (from?.pathname && from.pathname !== paths.login.path) {
      navigate(
        { pathname: from.pathname, search: from.search, hash: from.hash },
        { replace: true, state: from.state },
      );
      return;
    }
    navigate(paths.home.path, { replace: true });
  };

  const pending = loginMutation.isPending;
  return (
    <Page title={t('auth:login.title')}>
      <div className={s.intro}>
        <h2 className={s.heading}>{t('auth:login.heading')}</h2>
        <p className={s.sub}>{t('auth:login.sub')}</p>
      </div>
      {reason && (
        <p className={s.notice} role="status" data-testid="login-reason">
          {reason}
        </p>
      )}
      <Card>
        <form className={s.form} onSubmit={onSubmit} noValidate>
          <TextField
            label={t('auth:fields.loginId')}
            name="loginId"
            autoComplete="username"
            value={loginId}
            onChange={(e) => setLoginId(e.target.value)}
            placeholder={t('auth:fields.loginIdPlaceholder')}
          />
          <PasswordField
            label={t('auth:fields.password')}
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            placeholder={t('auth:fields.passwordPlaceholder')}
          />
          <Button type="submit" block disabled={pending} data-testid="login-submit">
            {pending ? t('auth:login.submitting') : t('auth:login.submit')}
          </Button>
        </form>
      </Card>
      <nav className={s.links}>
        <Link className={s.link} to={paths.findId.path}>
          {t('auth:login.findId')}
        </Link>
        <Link className={s.link} to={paths.findPw.path}>
          {t('auth:login.findPw')}
        </Link>
        <Link className={s.link} to={paths.agreement.path}>
          {t('auth:login.signup')}
        </Link>
      </nav>
    </Page>
  );
}
