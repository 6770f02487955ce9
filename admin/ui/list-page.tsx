/**
 * A console page that lists a paged read: its one heading with its actions (Refresh unless the
 * page names its own), what stands above the table (a check's verdict, the filter bar), the
 * table driven by its columns with the "more" under it, and the row helpers those tables share.
 */
import { Button, Form, type TableProps } from 'antd';
import type { ReactNode } from 'react';
import { useI18n, type Translate } from '../i18n/i18n.js';
import { ConsoleTable } from './console-table.js';
import { formatAmount } from './format.js';
import { LoadMore } from './load-more.js';
import { Page } from './page.js';
import type { PagedList } from './use-paged-list.js';

export function ListPage<T extends object>({
  title,
  actions,
  filters,
  list,
  items = list.items,
  rowKey = 'id',
  columns,
  children,
}: {
  title: string;
  /** Absent: the Refresh button, which reads the list's first page again. */
  actions?: ReactNode;
  /** Between the heading and the table: the filter bar, a verdict. */
  filters?: ReactNode;
  list: PagedList<T>;
  /** The rows shown, when the page orders the list's own. */
  items?: T[];
  rowKey?: TableProps<T>['rowKey'];
  columns: NonNullable<TableProps<T>['columns']>;
  /** After the list: its detail drawer, its dialogs. */
  children?: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <Page
      title={title}
      actions={actions ?? <Button onClick={() => void list.reload()}>{t('common.refresh')}</Button>}
    >
      {filters}
      <PagedTable<T> label={title} list={list} items={items} rowKey={rowKey} columns={columns} />
      {children}
    </Page>
  );
}

/** A paged list's table, named by `label`, with the "more" under it. */
export function PagedTable<T extends object>({
  label,
  list,
  items = list.items,
  rowKey = 'id',
  columns,
}: {
  label: string;
  list: PagedList<T>;
  items?: T[];
  rowKey?: TableProps<T>['rowKey'];
  columns: NonNullable<TableProps<T>['columns']>;
}) {
  return (
    <>
      <ConsoleTable<T>
        label={label}
        rowKey={rowKey}
        loading={list.loading}
        dataSource={items}
        columns={columns}
      />
      <LoadMore list={list} />
    </>
  );
}

/** A list's filter bar: an inline form named for the page (its fields read the list again). */
export function FilterBar<V>({
  name,
  className = 'console-filters',
  onFinish,
  children,
}: {
  name: string;
  className?: string;
  onFinish?: (values: V) => void;
  children: ReactNode;
}) {
  return (
    <Form<V> layout="inline" className={className} name={name} onFinish={onFinish}>
      {children}
    </Form>
  );
}

/** A row's link that opens its detail, named "Details <text>" for assistive technology. */
export function DetailsLink({
  text,
  onOpen,
  className = '',
}: {
  text: string;
  onOpen(): void;
  className?: string;
}) {
  const { t } = useI18n();
  return (
    <Button type="link" className={className} onClick={onOpen} aria-label={`${t('common.details')} ${text}`}>
      {text}
    </Button>
  );
}

/**
 * A row's action, a small button whose accessible name also names the row ("Disable Alpha"):
 * `label` is its text, `action` (when it differs) the verb its name starts with.
 */
export function RowButton({
  label,
  action = label,
  row,
  tone = 'plain',
  onClick,
}: {
  label: string;
  action?: string;
  /** The row's name (its id, title or name). */
  row: string;
  tone?: 'plain' | 'primary' | 'danger';
  onClick(): void;
}) {
  return (
    <Button
      size="small"
      {...(tone === 'primary' ? { type: 'primary' as const } : {})}
      danger={tone === 'danger'}
      onClick={onClick}
      aria-label={`${action} ${row}`}
    >
      {label}
    </Button>
  );
}

/** The Amount column of a row's USDT `amount`, formatted. */
export function usdtAmountColumn(t: Translate) {
  return {
    title: t('withdrawals.amount'),
    dataIndex: 'amount',
    render: (amount: string) => formatAmount(amount, 'USDT'),
  };
}
