/** A console page: its one h1, the actions beside it, its content. */
import type { ReactNode } from 'react';

export function Page({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="console-page">
      <div className="console-page-head">
        <h1 className="console-page-title">{title}</h1>
        {actions ? <div className="console-page-actions">{actions}</div> : null}
      </div>
      {children}
    </section>
  );
}
