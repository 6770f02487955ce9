/** Times as the user reads them: in the page's language, inside a machine-readable <time>. */
import { useTranslation } from 'react-i18next';

/** How much of a time to show: the date alone, or the date with the time in short or medium form. */
export type TimeStyle = 'date' | 'short' | 'medium';

/** `at` (ISO 8601 or epoch milliseconds) written for `language` in `style`. */
export function formatTime(at: string | number, language: string, style: TimeStyle): string {
  const date = new Date(at);
  return style === 'date'
    ? date.toLocaleDateString(language)
    : date.toLocaleString(language, { dateStyle: style, timeStyle: 'short' });
}

export function DateTime({
  at,
  style,
  className,
}: {
  at: string | number;
  style: TimeStyle;
  className?: string;
}) {
  const { i18n } = useTranslation();
  return (
    <time className={className} dateTime={new Date(at).toISOString()}>
      {formatTime(at, i18n.language, style)}
    </time>
  );
}
