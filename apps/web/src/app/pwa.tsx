import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { PwaUpdatePrompt } from './PwaUpdatePrompt';

/**
 * Starts the PWA side of the app (DECISIONS §16) in its own small root after the page has loaded: service
 * worker registration and the update prompt are not part of the first paint.
 */
export function startPwa(): void {
  const host = document.createElement('div');
  host.id = 'pwa-root';
  document.body.append(host);
  createRoot(host).render(
    <StrictMode>
      <PwaUpdatePrompt />
    </StrictMode>,
  );
}
