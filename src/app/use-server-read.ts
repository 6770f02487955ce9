/**
 * A read asked of the server each time a page needs it and kept nowhere (a price, a band, terms
 * only worth showing while current): asked again when `key` changes (the link came back, a newer
 * price was pulled) or on `reload`; the last answer for the same `scope` (an account) stays shown
 * while a new one is asked for. A refusal follows the body-code rules (useOutcome); a transport
 * failure is told by the page, not as a toast.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Outcome } from '../../sync/ports.js';
import { useOutcome } from './outcome.js';

/**
 * `loading` (asked, no answer yet), `ready` (the server answered), `unavailable` (no answer:
 * offline or the server unreachable), `refused` (told as a toast).
 */
export type ReadState = 'loading' | 'ready' | 'unavailable' | 'refused';

export interface ServerRead<T> {
  /** The last answer for this scope, kept while a new one is asked for; null before the first. */
  data: T | null;
  state: ReadState;
  /** Asks the server again. */
  reload: () => void;
}

export function useServerRead<T>(scope: string, key: string, ask: () => Promise<Outcome<T>>): ServerRead<T> {
  const handle = useOutcome();
  const [round, setRound] = useState(0);
  const [last, setLast] = useState<{ scope: string; data: T } | null>(null);
  const [answered, setAnswered] = useState<{ key: string; state: ReadState } | null>(null);
  const reload = useCallback(() => setRound((value) => value + 1), []);
  // The latest closure: asking again is decided by `key`, not by a new function each render.
  const latest = useRef(ask);
  latest.current = ask;
  const fullKey = `${scope}/${key}/${round}`;

  useEffect(() => {
    let live = true;
    void latest.current().then((outcome) => {
      if (!live) return;
      if (outcome.kind === 'ok') {
        setLast({ scope, data: outcome.data });
        setAnswered({ key: fullKey, state: 'ready' });
      } else if (outcome.kind === 'transport') {
        setAnswered({ key: fullKey, state: 'unavailable' });
      } else {
        setAnswered({ key: fullKey, state: 'refused' });
        handle(outcome);
      }
    });
    return () => {
      live = false;
    };
  }, [fullKey, scope, handle]);

  return {
    data: last?.scope === scope ? last.data : null,
    state: answered?.key === fullKey ? answered.state : 'loading',
    reload,
  };
}
