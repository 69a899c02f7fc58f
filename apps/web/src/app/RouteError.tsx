import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { Button } from '../components/ui/Button';
import { Card } from '../components/ui/Card';
import w from '../components/ui/widgets.module.css';
import { paths } from '../config/paths';

/**
 * The error boundary of every route (React Router `errorElement`): a screen that threw while rendering or
 * failed to load its chunk shows a localized message and two ways on (try the screen again, go home), inside
 * the app column, never React Router's English default with a stack trace. The error goes to the console
 * only, for a developer.
 */
export function RouteError() {
  const { t } = useTranslation('common');
  const error = useRouteError();
  // A developer reads it in the console; the member never sees it.
  console.error(error);
  return (
    <main style={{ padding: 'var(--space-5) var(--space-4)' }}>
      <Card className={w.loadError} data-testid="route-error" role="alert">
        <h1 style={{ margin: 0, fontSize: 'var(--text-lg)' }}>{t('routeError.title')}</h1>
        <p className={w.loadErrorText}>{t('routeError.message')}</p>
        <Button block onClick={() => window.location.reload()} data-testid="route-error-retry">
          {t('routeError.retry')}
        </Button>
        <Button
          block
          variant="outline"
          // A full load, not a client-side move: React Router keeps a failed page chunk's outcome for the
          // rest of the document, so only a fresh one tries that screen's chunk again later.
          onClick={() => window.location.assign(paths.home.path)}
          data-testid="route-error-home"
        >
          {t('routeError.home')}
        </Button>
      </Card>
    </main>
  );
}
