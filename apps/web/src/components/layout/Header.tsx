import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { useSession } from '../../lib/session';
import s from '../ui/ui.module.css';
import { BackIcon, CloseIcon, HomeIcon } from './icons';
import { LanguageSelector } from './LanguageSelector';
import l from './layout.module.css';

// A signed-in member's links (notifications, my page with its badge, logout): loaded only when signed in.
const MemberLinks = lazy(() => import('./MemberLinks'));

interface Props {
  /** `main`: logo and account links (home); `sub`: back, title, home or close. */
  variant?: 'main' | 'sub';
  title?: string;
  /** Show a close button instead of home. */
  close?: boolean;
}

function historyIndex(): number {
  const st = window.history.state as { idx?: number } | null;
  return typeof st?.idx === 'number' ? st.idx : 0;
}

/**
 * The app header (SPEC §2): back to the previous page (home when there is none), home, close (back, except
 * /complete: full reload to /, and /request_successfully: replace to /transaction), the language selector and
 * the account links or logout.
 */
export function Header({ variant = 'sub', title, close }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const loggedIn = useSession((st) => Boolean(st.accessToken));

  const goBack = () => {
    if (pathname === paths.complete.path) navigate(paths.home.path, { replace: true });
    else if (historyIndex() > 0) navigate(-1);
    else navigate(paths.home.path);
  };
  const onClose = () => {
    if (pathname === paths.complete.path) window.location.assign(paths.home.path);
    else if (pathname === paths.requestSuccessfully.path) navigate(paths.transaction.path, { replace: true });
    else goBack();
  };

  if (variant === 'main') {
    return (
      <header className={l.header} style={{ gridTemplateColumns: 'auto 1fr' }}>
        <Link to={paths.home.path} className={l.logo}>
          <span className={l.logoMark}>P2P</span>
          <span className={l.brandText}>{t('common:brand')}</span>
        </Link>
        <div className={l.right}>
          <LanguageSelector />
          {loggedIn ? (
            <Suspense fallback={null}>
              <MemberLinks />
            </Suspense>
          ) : (
            <>
              <Link to={paths.login.path} className={l.textLink} data-testid="header-login">
                {t('common:nav.login')}
              </Link>
              <Link
                to={paths.agreement.path}
                className={`${l.textLink} ${l.textLinkAccent}`}
                data-testid="header-signup"
              >
                {t('common:nav.signup')}
              </Link>
            </>
          )}
        </div>
      </header>
    );
  }

  return (
    <header className={l.header}>
      <div className={l.left}>
        <button type="button" className={s.iconButton} onClick={goBack} aria-label={t('common:actions.back')}>
          <BackIcon />
        </button>
      </div>
      <h1 className={l.title}>{title}</h1>
      <div className={l.right}>
        <LanguageSelector />
        {close ? (
          <button
            type="button"
            className={s.iconButton}
            onClick={onClose}
            aria-label={t('common:actions.close')}
          >
            <CloseIcon />
          </button>
        ) : (
          <button
            type="button"
            className={s.iconButton}
            onClick={() => navigate(paths.home.path)}
            aria-label={t('common:actions.home')}
          >
            <HomeIcon />
          </button>
        )}
      </div>
    </header>
  );
}
