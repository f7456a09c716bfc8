import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
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

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
