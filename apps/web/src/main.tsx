import './app/react19-refs';
import 'pretendard/dist/web/variable/pretendardvariable-dynamic-subset.css';
import './app/theme.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { i18nReady } from './i18n';

const router = createAppRouter();
const root = document.getElementById('root');
// The first render waits for the landing texts of the member's language (their two chunks are preloaded by
// boot.js); until then index.html's static hero is on screen. A failed load renders with keys, not nothing.
const render = () => {
  if (!root) return;
  createRoot(root).render(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
};
void i18nReady.then(render, render);

// The service worker (installable PWA, offline page) registers after load, in every browser: a test that must
// run without it blocks it in its browser context (Playwright `serviceWorkers: 'block'`), the product has no
// special case for automation.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => void import('./app/pwa').then((m) => m.startPwa()), { once: true });
}
