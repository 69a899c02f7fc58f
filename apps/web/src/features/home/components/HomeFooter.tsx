import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type LegalDoc, TermsModal } from '../../../components/ui/TermsModal';
import { paths } from '../../../config/paths';
import s from '../home.module.css';

/** Footer (SPEC §1, §2): terms and privacy popups, links to /transaction, /myinfo, /contact. */
export function HomeFooter() {
  const { t } = useTranslation('home');
  const [doc, setDoc] = useState<LegalDoc | null>(null);
  return (
    <footer className={s.footer}>
      <nav className={s.footerLinks} aria-label={t('footer.nav')}>
        <button
          type="button"
          className={s.footerLink}
          onClick={() => setDoc('terms')}
          data-testid="footer-terms"
        >
          {t('footer.terms')}
        </button>
        <button
          type="button"
          className={s.footerLink}
          onClick={() => setDoc('privacy')}
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
      <p className={s.footerText}>{t('footer.hours')}</p>
      <p className={s.footerText}>{t('footer.notice')}</p>
      <p className={s.footerText}>{t('footer.copyright')}</p>
      <TermsModal doc={doc} onClose={() => setDoc(null)} />
    </footer>
  );
}
