/** "Send code" with the spec's 60 s resend countdown (the server enforces it too). */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CODE_RESEND_SECONDS } from '../../contract/constants.js';

/** Seconds left of a countdown ending at `until` (ms), ticking each second. */
export function useCountdown(until: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until <= now) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [until, now]);
  return Math.max(0, Math.ceil((until - now) / 1000));
}

interface CodeButtonProps {
  /** Sends the code; resolves with the seconds to wait (60 on success, the server's retryAfter on 429) or 0. */
  onSend(): Promise<number>;
  disabled?: boolean;
  /** A countdown already running (the code was sent on the previous page). */
  initialUntil?: number;
  /** The button's text while no countdown runs ("Send code" unless told). */
  label?: string;
}

export function CodeButton({ onSend, disabled = false, initialUntil = 0, label }: CodeButtonProps) {
  const { t } = useTranslation();
  const [until, setUntil] = useState(initialUntil);
  const [sending, setSending] = useState(false);
  const left = useCountdown(until);
  const send = async () => {
    setSending(true);
    try {
      const wait = await onSend();
      if (wait > 0) setUntil(Date.now() + wait * 1000);
    } finally {
      setSending(false);
    }
  };
  return (
    <button
      type="button"
      className="code-button"
      disabled={disabled || sending || left > 0}
      onClick={() => void send()}
      aria-live="polite"
    >
      {left > 0 ? t('auth.resend_in', { seconds: left }) : (label ?? t('auth.send_code'))}
    </button>
  );
}

export { CODE_RESEND_SECONDS };
