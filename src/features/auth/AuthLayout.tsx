/** The custom-header frame of the login and register pages: brand, language, the page's heading. */
import type { ReactNode } from 'react';
import { LanguageSelect } from '../../ui/LanguageSelect.js';

export function AuthLayout({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
}) {
  return (
    <div className="auth">
      <div className="auth__top">
        <span className="auth__brand" aria-hidden="true">
          <svg viewBox="0 0 32 32" width="32" height="32">
            <rect width="32" height="32" rx="9" fill="currentColor" />
            <path
              d="M9 12h14v10a2 2 0 0 1-2 2H11a2 2 0 0 1-2-2zM12 12V9a4 4 0 0 1 8 0v3"
              fill="none"
              stroke="#fff"
              strokeWidth="2"
            />
          </svg>
          Coffer
        </span>
        <LanguageSelect compact />
      </div>
      <h1 className="auth__title">{title}</h1>
      {subtitle && <p className="auth__subtitle">{subtitle}</p>}
      {children}
    </div>
  );
}
