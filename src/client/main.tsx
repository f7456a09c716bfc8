import './styles.css';
import { SESSION_ELEMENT_ID } from '@shared/contracts/page-session';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { preloadPage } from '@/app/router';
import { authUserQueryKey } from '@/lib/auth-user-query';
import { sessionFromPage } from '@/lib/page-session';
import { queryClient } from '@/lib/query-client';
import { applyDarkMode, readDarkMode } from '@/lib/theme';

// Before the first render, so a dark page never flashes light (the CSP forbids doing this
// in an inline script in index.html).
applyDarkMode(readDarkMode());

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The installable app's service worker (decision 253): built with production builds only. It
// shows pushes and never answers the API; registered after the first screen has loaded.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
      // No service worker (a private window, a policy): the app works; push is not offered.
    });
  });
}

// The page came with its signed-in user (issue 35): the first screen need not ask who it is, so
// it paints without the session's "Loading..." in between. The block is read once and removed.
const sessionBlock = document.getElementById(SESSION_ELEMENT_ID);
sessionBlock?.remove();
const session = sessionFromPage(sessionBlock?.textContent);
if (session) queryClient.setQueryData(authUserQueryKey, session);

// The page's code loads beside the signed-in user's read, not after it.
preloadPage(window.location.pathname);

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
