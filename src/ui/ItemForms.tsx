/**
 * An item's actions that each open their form under the item (a hosting order's increase, decrease
 * and redeem; a machine's buy and rent): one form at a time, pressing the open one's button closes
 * it, and a form opened again starts afresh (it is keyed by its action).
 */
import { Button } from './adm-button.js';
import { Fragment, useState, type ReactNode } from 'react';

export interface ItemAction<K extends string> {
  kind: K;
  /** The button's text. */
  label: string;
  /** The button's accessible name: the action and the item it acts on. */
  named: string;
  primary?: boolean;
}

export function ItemForms<K extends string>({
  actions,
  className,
  size,
  form,
}: {
  actions: readonly ItemAction<K>[];
  /** The classes of the buttons' row. */
  className: string;
  size?: 'small';
  /** The form of the action open; `close` closes it. */
  form: (kind: K, close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState<K | null>(null);
  const close = () => setOpen(null);
  return (
    <>
      <div className={className}>
        {actions.map((action) => (
          <Button
            key={action.kind}
            size={size ?? 'middle'}
            color={action.primary ? 'primary' : 'default'}
            aria-expanded={open === action.kind}
            aria-label={action.named}
            onClick={() => setOpen((current) => (current === action.kind ? null : action.kind))}
          >
            {action.label}
          </Button>
        ))}
      </div>
      {open !== null && <Fragment key={open}>{form(open, close)}</Fragment>}
    </>
  );
}
