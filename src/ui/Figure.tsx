/**
 * One figure of a <dl>: its label and value; `strong` for the one that matters most; or a time;
 * or a cell pair of a two-column grid.
 */
import type { ReactNode } from 'react';
import { DateTime } from './DateTime.js';

export function Figure({
  label,
  value,
  strong = false,
}: {
  label: string;
  value: ReactNode;
  strong?: boolean;
}) {
  return (
    <div className={strong ? 'figure-list__strong' : undefined}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/** A figure whose value is a time, shown short in the user's language. */
export function TimeFigure({ label, at }: { label: string; at: string | number }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>
        <DateTime at={at} style="short" />
      </dd>
    </div>
  );
}

/** A figure of a two-column grid (<dl class="figures">): its label and value are the grid's cells. */
export function GridFigure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}
