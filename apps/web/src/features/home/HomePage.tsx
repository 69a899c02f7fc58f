import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../components/layout/Page';
import { Button } from '../../components/ui/Button';
import { paths } from '../../config/paths';
import { HomeFooter } from './components/HomeFooter';
import { PopularListings } from './components/PopularListings';
import { PriceCards } from './components/PriceCards';
import s from './home.module.css';

/** `/` (SPEC §1, §2): hero with the trade button, live rates, popular sales and the footer. */
export default function HomePage() {
  const { t } = useTranslation('home');
  const navigate = useNavigate();
  return (
    <Page variant="main" flush>
      {/* Global classes: index.html paints the same hero before any script (vite.config.ts staticHero). */}
      <section className="hero">
        <p className="hero-eyebrow">{t('hero.eyebrow')}</p>
        <h1 className="hero-title">{t('hero.title')}</h1>
        <p className="hero-sub">{t('hero.sub')}</p>
        <Button
          className={s.heroButton}
          onClick={() => navigate(paths.transaction.path)}
          data-testid="hero-trade"
        >
          {t('hero.cta')}
        </Button>
      </section>
      <PriceCards />
      <PopularListings />
      <HomeFooter />
    </Page>
  );
}
