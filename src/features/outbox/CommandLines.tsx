/**
 * The two lines under a money form: the command being sent (a status) and why the last one was
 * not made (an alert). Only one speaks at a time: the notice waits while a command is sent.
 */
import type { ReactNode } from 'react';

export function CommandLines({
  flow: { sending, notice },
  status,
  className = 'command-status',
  children,
}: {
  /** The form's command: being sent, or why the last one was not made. */
  flow: { sending: boolean; notice: string | null };
  /** What is being sent; without it the form has no status line. */
  status?: string;
  /** The lines' class (the shared `command-status` unless the form styles its own); the alert adds `<className>--error`. */
  className?: string;
  /** What stands between the two lines (an offer to confirm again). */
  children?: ReactNode;
}) {
  return (
    <>
      {status !== undefined && (
        <p className={className} role="status">
          {sending ? status : ''}
        </p>
      )}
      {children}
      <p className={`${className} ${className}--error`} role="alert">
        {sending ? '' : (notice ?? '')}
      </p>
    </>
  );
}
