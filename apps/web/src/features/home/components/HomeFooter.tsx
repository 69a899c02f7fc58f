import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CompanyDetails } from '../../../components/layout/CompanyDetails';
import type { LegalDoc } from '../../../components/ui/TermsModal';
import { paths } from '../../../config/paths';
import s from '../home.module.css';

// The terms texts (legal namespace) load when a member opens them, not with the landing page.
const TermsModal = lazy(() =>
  import('../../../components/ui/TermsModal').then((m) => ({ default: m.TermsModal })),
);

/** Footer (SPEC §1, §2): terms and privacy popups, links to /transaction, /myinfo, /contact. */
export function HomeFooter() {
  const { t, i18n } = useTranslation('home');
  const [doc, setDoc] = useState<LegalDoc | null>(null);
  // The texts first, so the sheet never opens on raw keys.
  const open = (d: LegalDoc) => void i18n.loadNamespaces('legal').then(() => setDoc(d));
  return (
    <footer className={s.footer}>
      <nav className={s.footerLinks} aria-label={t('footer.nav')}>
        <button
          type="button"
          className={s.footerLink}
          onClick={() => open('terms')}
          data-testid="footer-terms"
        >
          {t('footer.terms')}
        </button>
        <button
          type="button"
          className={s.footerLink}
          onClick={() => open('privacy')}
          data-testid="footer-privacy"
        >
          {t('footer.privacy')}
        </button>
        <Link to={paths.transaction.path} className={s.footerLink}>
          {t('footer.trade')}
        </Link>
        <Link to={paths.myInfo.path} className={s.footerLink}>
          {t('footer.myPage')}
        </Link>
        <Link to={paths.contact.path} className={s.footerLink}>
          {t('footer.contact')}
        </Link>
      </nav>
      <CompanyDetails />
      <p className={s.footerText}>{t('footer.hours')}</p>
      <p className={s.footerText}>{t('footer.notice')}</p>
      <p className={s.footerText}>{t('footer.copyright')}</p>
      {doc && (
        <Suspense fallback={null}>
          <TermsModal doc={doc} onClose={() => setDoc(null)} />
        </Suspense>
      )}
    </footer>
  );
}
