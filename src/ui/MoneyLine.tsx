/**
 * One line of money in a list (a wallet record, an income line, a change to an order): what it
 * was, the amount with its sign and unit, a line that explains it, and when. Every money list
 * writes its lines through it, so a figure reads the same way on every page.
 */
import type { ReactNode } from 'react';
import { signedAmount } from './amounts.js';
import { DateTime } from './DateTime.js';
import { partsLine } from './parts-line.js';

export function MoneyLine({
  className,
  kind,
  amount,
  unit,
  detail,
  at,
  when,
  children,
}: {
  /** The list's own class beside `record`. */
  className?: string;
  /** What the money was, in the user's words. */
  kind: ReactNode;
  /** A wire amount; without a sign it is money in. */
  amount: string;
  /** The asset it is counted in. */
  unit: string;
  /** The parts of the line that explains the figure (its book, its source, its dates), joined by `partsLine`. */
  detail: readonly (string | null | undefined)[];
  /** When it happened, as a time (ISO 8601)... */
  at?: string;
  /** ...or as a sentence (a day it was earned, a day it arrives). */
  when?: ReactNode;
  /** What else the line shows (a balance after, a status badge). */
  children?: ReactNode;
}) {
  const signed = signedAmount(amount);
  return (
    <li className={className === undefined ? 'record' : `record ${className}`}>
      <p className="record__kind">{kind}</p>
      <p className={`record__amount record__amount--${signed.direction}`}>
        {signed.text} <span className="record__unit">{unit}</span>
      </p>
      <p className="muted record__book">{partsLine(detail)}</p>
      {at !== undefined && <DateTime className="muted record__time" at={at} style="short" />}
      {when !== undefined && <p className="muted record__time">{when}</p>}
      {children}
    </li>
  );
}
