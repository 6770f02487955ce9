/**
 * A section listing an account's records: its heading (which also names the list), the as-of
 * line, an optional filter (all or one kind), the empty note or the rows, and the "more" of a list
 * read in pages. The page states its list once (`RecordsList`: its words and synced collections)
 * and how a row looks.
 */
import type { ParseKeys } from 'i18next';
import { Fragment, useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AsOf } from './AsOf.js';
import { StackSection } from './Card.js';
import { MoreButton } from './MoreButton.js';
import { Select } from './Select.js';

/**
 * A list shown a page at a time: read `shown + 1` rows, so one more than shown says there is more;
 * `more` names the button that shows the next page.
 */
export interface Paging {
  shown: number;
  more: ParseKeys;
  showMore: () => void;
  /** Back to the first page (when a filter changes). */
  reset: () => void;
}

/** Records a list read in pages shows at first, and adds with each press of its "more". */
export const RECORDS_PAGE = 20;

export function usePaging(pageSize: number, more: ParseKeys): Paging {
  const [shown, setShown] = useState(pageSize);
  return {
    shown,
    more,
    showMore: () => setShown((count) => count + pageSize),
    reset: () => setShown(pageSize),
  };
}

/**
 * A catalogue group holding a list filter's words: `label`, its "all" choice (`all`) and the note
 * when what it chose is empty (`empty`), e.g. `records.filter`.
 */
export type FilterWords = {
  [K in ParseKeys]: K extends `${infer Group}.label`
    ? `${Group}.all` | `${Group}.empty` extends ParseKeys
      ? Group
      : never
    : never;
}[ParseKeys];

/** A list's filter: "all" or one of `values`, each named by the locale key `keyOf` gives. */
export interface RecordsFilterState<V extends string> {
  value: V | 'all';
  values: readonly V[];
  keyOf: (value: V) => ParseKeys;
  words: FilterWords;
  onChange: (value: V | 'all') => void;
}

/** A filter's state, "all" at first. */
export function useRecordsFilter<V extends string>(
  values: readonly V[],
  keyOf: (value: V) => ParseKeys,
  words: FilterWords,
): RecordsFilterState<V> {
  const [value, setValue] = useState<V | 'all'>('all');
  return { value, values, keyOf, words, onChange: setValue };
}

/** The note of a filtered list that is empty: the filter's while it chose one value, else `empty`. */
export const emptyNote = (
  filter: Pick<RecordsFilterState<string>, 'value' | 'words'> | undefined,
  empty: ParseKeys,
): ParseKeys => (filter !== undefined && filter.value !== 'all' ? `${filter.words}.empty` : empty);

/** A list's filter as a select: choosing goes back to the list's first page (`onReset`). */
export function RecordsFilter<V extends string>({
  filter,
  onReset,
}: {
  filter: RecordsFilterState<V>;
  onReset: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Select<V | 'all'>
      className="card"
      label={t(`${filter.words}.label`)}
      value={filter.value}
      options={[
        { value: 'all', label: t(`${filter.words}.all`) },
        ...filter.values.map((option) => ({ value: option, label: t(filter.keyOf(option)) })),
      ]}
      onChange={(chosen) => {
        filter.onChange(chosen);
        onReset();
      }}
    />
  );
}

/**
 * What a records section says (locale keys), stated once by its page: the heading (which labels
 * the section and the list) and the note of an empty list (a filter brings its own words).
 */
export interface RecordsWords {
  title: ParseKeys;
  empty: ParseKeys;
}

/**
 * A list of an account's synced records, stated once by its page: its words, the button that shows
 * its next page, and the collections whose as-of time it shows (`useRecordsList`).
 */
export interface RecordsList extends RecordsWords {
  more: ParseKeys;
  collections: readonly string[];
}

interface RecordsSectionProps<T extends { id: string }, V extends string> {
  words: RecordsWords;
  /** When the records were last synced; absent: no as-of line. */
  syncedAt?: string | null | undefined;
  /** Shown below the as-of line. */
  filter?: RecordsFilterState<V>;
  /** Undefined while reading: neither the empty note nor rows show. */
  records: readonly T[] | undefined;
  /** Absent: every record is shown. */
  paging?: Paging | undefined;
  listClassName?: string;
  children: (record: T) => ReactNode;
}

export function RecordsSection<T extends { id: string }, V extends string = never>({
  words,
  syncedAt,
  filter,
  records,
  paging,
  listClassName = 'card row-list',
  children,
}: RecordsSectionProps<T, V>) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <StackSection id={id} title={t(words.title)}>
      <AsOf syncedAt={syncedAt} />
      {filter !== undefined && <RecordsFilter filter={filter} onReset={() => paging?.reset()} />}
      {records !== undefined && records.length === 0 && (
        <p className="card muted">{t(emptyNote(filter, words.empty))}</p>
      )}
      <PagedRows rows={records} paging={paging} className={listClassName} labelledBy={id}>
        {children}
      </PagedRows>
    </StackSection>
  );
}

/**
 * Rows as a list shown a page at a time (`paging`; absent: all of them), and the "more" button
 * while there are more; nothing while `rows` is undefined or empty (the caller says why).
 */
export function PagedRows<T extends { id: string }>({
  rows,
  paging,
  className,
  label,
  labelledBy,
  children,
}: {
  rows: readonly T[] | undefined;
  paging?: Paging | undefined;
  className: string;
  /** The list's accessible name, or the id of the element that gives it. */
  label?: string;
  labelledBy?: string;
  children: (row: T) => ReactNode;
}) {
  const { t } = useTranslation();
  if (rows === undefined || rows.length === 0) return null;
  const shown = paging?.shown ?? rows.length;
  return (
    <>
      <ul className={className} aria-label={label} aria-labelledby={labelledBy}>
        {rows.slice(0, shown).map((row) => (
          <Fragment key={row.id}>{children(row)}</Fragment>
        ))}
      </ul>
      {paging !== undefined && rows.length > shown && (
        <MoreButton onClick={paging.showMore}>{t(paging.more)}</MoreButton>
      )}
    </>
  );
}
