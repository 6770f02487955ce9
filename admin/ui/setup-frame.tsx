/** The frame of the pages before the shell (sign-in, password, authenticator): the language picker and one card. */
import type { ReactNode } from 'react';
import { LanguagePicker } from './language-picker.js';

export function SetupFrame({ children }: { children: ReactNode }) {
  return (
    <div className="console-setup-frame">
      <header className="console-setup-bar">
        <LanguagePicker />
      </header>
      <main className="console-setup">{children}</main>
    </div>
  );
}
