/** A card or section with its heading: the heading's id labels it, so a screen reader names it. */
import type { FormEvent, ReactNode } from 'react';

interface CardProps {
  /** The heading's id. */
  id: string;
  title: ReactNode;
  children: ReactNode;
}

/** A page's section, its parts stacked under its heading (`section-title`), which names it. */
export function StackSection({ id, title, children }: CardProps) {
  return (
    <section className="stack" aria-labelledby={id}>
      <h2 id={id} className="section-title">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A section card (`card` unless `className` says more). */
export function CardSection({ id, title, className = 'card', children }: CardProps & { className?: string }) {
  return (
    <section className={className} aria-labelledby={id}>
      <h2 id={id} className="card__title">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** The accent card at a page's top: its heading is the label above the page's main figure. */
export function AccentCard({ id, title, className, children }: CardProps & { className?: string }) {
  return (
    <section
      className={className === undefined ? 'card card--accent' : `card card--accent ${className}`}
      aria-labelledby={id}
    >
      <h2 id={id} className="card__label">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A form card; the browser's own validation is off (the form shows its messages). */
export function CardForm({
  id,
  title,
  onSubmit,
  children,
}: CardProps & { onSubmit: (event: FormEvent) => void }) {
  return (
    <form className="card form" onSubmit={onSubmit} noValidate aria-labelledby={id}>
      <h2 id={id} className="card__title">
        {title}
      </h2>
      {children}
    </form>
  );
}
