/**
 * A section listing an account's records: its heading (which also names the list), the as-of
 * line, an optional filter (`RecordsFilter`: all or one kind), the empty note or the rows, and the
 * "more" of a list read in pages.
 */
import { Fragment, useState, type ReactNode } from 'react';
import { AsOf } from './AsOf.js';
import { StackSection } from './Card.js';
import { MoreButton } from './MoreButton.js';
import { Select } from './Select.js';

/** A list shown a page at a time: read `shown + 1` rows, so one more than shown says there is more. */
export interface Paging {
  shown: number;
  showMore: () => void;
  /** Back to the first page (when a filter changes). */
  reset: () => void;
}

export function usePaging(pageSize: number): Paging {
  const [shown, setShown] = useState(pageSize);
  return {
    shown,
    showMore: () => setShown((count) => count + pageSize),
    reset: () => setShown(pageSize),
  };
}

/**
 * A list's filter: "all" (`allLabel`) or one of `values`, each named by `labelOf`; choosing one
 * goes back to the list's first page (`onReset`).
 */
export function RecordsFilter<V extends string>({
  label,
  allLabel,
  value,
  values,
  labelOf,
  onChange,
  onReset,
}: {
  label: string;
  allLabel: string;
  value: V | 'all';
  values: readonly V[];
  labelOf: (value: V) => string;
  onChange: (value: V | 'all') => void;
  onReset: () => void;
}) {
  return (
    <Select<V | 'all'>
      className="card"
      label={label}
      value={value}
      options={[
        { value: 'all', label: allLabel },
        ...values.map((option) => ({ value: option, label: labelOf(option) })),
      ]}
      onChange={(chosen) => {
        onChange(chosen);
        onReset();
      }}
    />
  );
}

interface RecordsSectionProps<T extends { id: string }> {
  /** The heading's id; the section and the list are labelled by it. */
  id: string;
  title: string;
  /** When the records were last synced; absent: no as-of line. */
  syncedAt?: string | null | undefined;
  /** Shown between the as-of line and the rows (a filter). */
  filter?: ReactNode;
  /** Undefined while reading: neither the empty note nor rows show. */
  records: readonly T[] | undefined;
  empty: string;
  /** Absent: every record is shown. */
  paging?: Paging | undefined;
  /** The "more" button's text, with paging. */
  more?: string;
  listClassName?: string;
  children: (record: T) => ReactNode;
}

export function RecordsSection<T extends { id: string }>({
  id,
  title,
  syncedAt,
  filter,
  records,
  empty,
  paging,
  more,
  listClassName = 'card row-list',
  children,
}: RecordsSectionProps<T>) {
  const shown = paging?.shown ?? records?.length ?? 0;
  return (
    <StackSection id={id} title={title}>
      <AsOf syncedAt={syncedAt} />
      {filter}
      {records !== undefined && records.length === 0 && <p className="card muted">{empty}</p>}
      {records !== undefined && records.length > 0 && (
        <ul className={listClassName} aria-labelledby={id}>
          {records.slice(0, shown).map((record) => (
            <Fragment key={record.id}>{children(record)}</Fragment>
          ))}
        </ul>
      )}
      {paging !== undefined && records !== undefined && records.length > shown && (
        <MoreButton onClick={paging.showMore}>{more}</MoreButton>
      )}
    </StackSection>
  );
}
