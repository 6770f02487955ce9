/** The console's start, loaded by admin/main.tsx once zod is configured: the style nonce, the language, the root. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { CONSOLE_NONCE_META } from '../contract/console.js';
import { ConsoleRoot } from './app/console-app.js';
import { storedLocale } from './i18n/i18n.js';
import { nonceUnmarkedStyles } from './style-nonce.js';
import './console.css';

/** The style nonce the server put into this answer's page and policy (contract/console.ts). */
const nonce = document.querySelector(`meta[name="${CONSOLE_NONCE_META}"]`)?.getAttribute('content') ?? '';
nonceUnmarkedStyles(nonce);
document.documentElement.lang = storedLocale();

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <ConsoleRoot nonce={nonce} />
    </StrictMode>,
  );
