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

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
