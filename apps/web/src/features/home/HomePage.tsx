import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../components/layout/Page';
import { Button } from '../../components/ui/Button';
import { paths } from '../../config/paths';
import { useSession } from '../../lib/session';
import { HomeFooter } from './components/HomeFooter';
import { PopularListings } from './components/PopularListings';
import { PriceCards } from './components/PriceCards';
import s from './home.module.css';

// A signed-in member's live orders: its own chunk, so a visitor's landing page loads none of it.
const LiveOrdersCard = lazy(() =>
  import('../../components/layout/MemberLinks').then((m) => ({ default: m.LiveOrdersCard })),
);

/** `/` (SPEC §1, §2): hero with the trade button, live rates, popular sales and the footer. */
export default function HomePage() {
  const { t } = useTranslation('home');
  const navigate = useNavigate();
  const signedIn = useSession((st) => Boolean(st.accessToken));
  return (
    <Page variant="main" flush tabs>
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
      {signedIn && (
        <Suspense fallback={null}>
          <LiveOrdersCard />
        </Suspense>
      )}
      <PriceCards />
      <PopularListings />
      <HomeFooter />
    </Page>
  );
}
