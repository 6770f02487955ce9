/**
 * How a settled outbox command reads on the page that queued it, and following it there to its
 * end once. Pure but for the hook.
 */
import { useEffect, useRef } from 'react';

/**
 * `done`; `refused` with the server's code and message (300, 4900 and 4901 then redirect);
 * `expired` (never sent in time); `cancelled`. Null while queued or sending.
 */
export type CommandOutcome =
  | { kind: 'done' }
  | { kind: 'refused'; code: number; message: string }
  | { kind: 'expired' }
  | { kind: 'cancelled' };

interface SettledFields {
  state: string;
  answer: { code: number; message: string } | null;
}

export function commandOutcome(command: SettledFields): CommandOutcome | null {
  switch (command.state) {
    case 'confirmed':
      return { kind: 'done' };
    case 'rejected': {
      const answer = command.answer ?? { code: 500, message: '' };
      return { kind: 'refused', code: answer.code, message: answer.message };
    }
    case 'expired':
      return { kind: 'expired' };
    case 'cancelled':
      return { kind: 'cancelled' };
    default:
      return null;
  }
}

/**
 * A command at a price the user saw: a 409 is `stale` (the price or the order changed; the page
 * shows what it is now and lets the user act again), any other refusal `refused`.
 */
export type PricedOutcome = CommandOutcome | { kind: 'stale'; message: string };

export function pricedOutcome(command: SettledFields): PricedOutcome | null {
  const outcome = commandOutcome(command);
  return outcome?.kind === 'refused' && outcome.code === 409
    ? { kind: 'stale', message: outcome.message }
    : outcome;
}

/**
 * Calls `onSettled` once per command when it settles (the command is read live, so its states
 * arrive one by one; a page opened again after the end hears nothing more).
 */
export function useSettled<C extends SettledFields & { id: string }, O>(
  command: C | null | undefined,
  outcomeOf: (command: C) => O | null,
  onSettled: (command: C, outcome: O) => void,
): void {
  const settled = useRef(new Set<string>());
  const latest = useRef(onSettled);
  latest.current = onSettled;
  useEffect(() => {
    if (command == null || settled.current.has(command.id)) return;
    const outcome = outcomeOf(command);
    if (outcome === null) return;
    settled.current.add(command.id);
    latest.current(command, outcome);
  }, [command, outcomeOf]);
}
