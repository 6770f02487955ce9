/**
 * A console page that lists a paged read: its one heading with its actions (Refresh unless the
 * page names its own), what stands above the table (a check's verdict, the filter bar), the
 * table driven by its columns, and the "more" under it.
 */
import { Button, Form, type TableProps } from 'antd';
import type { ReactNode } from 'react';
import { useI18n } from '../i18n/i18n.js';
import { ConsoleTable } from './console-table.js';
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
      <ConsoleTable<T>
        label={title}
        rowKey={rowKey}
        loading={list.loading}
        dataSource={items}
        columns={columns}
      />
      <LoadMore list={list} />
      {children}
    </Page>
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
