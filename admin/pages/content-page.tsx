/**
 * Content: news (create, edit, delete, publish time; in one language or all), the marquee's
 * notices (create, delete) and quotes (set by hand), each change behind a dialog that states it.
 * Lists come from the public routes the app reads (news and notices in the console's language
 * and those for every language).
 */
import { Button, DatePicker, Input, Select, Space, Tabs } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { doneDataSchema } from '../../contract/api/admin.js';
import {
  newsListDataSchema,
  newsRecordSchema,
  noticeListDataSchema,
  noticeRecordSchema,
  quoteListDataSchema,
  quoteRecordSchema,
  type NewsRecord,
  type NoticeRecord,
  type QuoteRecord,
} from '../../contract/api/content.js';
import { LANGUAGES } from '../../contract/locales.js';
import { useConsole } from '../app/context.js';
import { RowButton } from '../ui/list-page.js';
import { useI18n } from '../i18n/i18n.js';
import { useConfirm } from '../ui/confirm.js';
import { FormDialog } from '../ui/form-dialog.js';
import { formatTime } from '../ui/format.js';
import { Page } from '../ui/page.js';
import { useAction } from '../ui/use-action.js';
import { usePagedList } from '../ui/use-paged-list.js';
import { ConsoleTable } from '../ui/console-table.js';
import { Field, InputField } from '../ui/field.js';
import { LoadMore } from '../ui/load-more.js';

/** The language select's value for "every language" (the wire's absent `lang`). */
const EVERY = 'every';

function useLanguageName() {
  const { t } = useI18n();
  return (lang: string | null | undefined) =>
    !lang || lang === EVERY
      ? t('common.everyone')
      : (LANGUAGES.find((item) => item.locale === lang)?.name ?? lang);
}

function LanguageField() {
  const nameOf = useLanguageName();
  return (
    <Field label="field.lang" name="lang">
      <Select
        options={[
          { value: EVERY, label: nameOf(null) },
          ...LANGUAGES.map((item) => ({ value: item.locale, label: item.name })),
        ]}
      />
    </Field>
  );
}

export function ContentPage() {
  const { t } = useI18n();
  return (
    <Page title={t('content.title')}>
      <Tabs
        items={[
          { key: 'news', label: t('content.news'), children: <NewsTab /> },
          { key: 'notices', label: t('content.notices'), children: <NoticesTab /> },
          { key: 'quotes', label: t('content.quotes'), children: <QuotesTab /> },
        ]}
      />
    </Page>
  );
}

interface NewsForm {
  title: string;
  summary: string;
  body: string;
  imageUrl?: string;
  lang: string;
  publishedAt?: { toISOString(): string } | null;
}

function NewsTab() {
  const { t } = useI18n();
  const { api } = useConsole();
  const run = useAction();
  const confirm = useConfirm();
  const nameOf = useLanguageName();
  const list = usePagedList('/api/v1/news/list', {}, newsListDataSchema);
  const [editing, setEditing] = useState<NewsRecord | 'new' | null>(null);

  const save = async (values: NewsForm) => {
    const params = {
      title: values.title,
      summary: values.summary,
      body: values.body,
      ...(values.imageUrl ? { imageUrl: values.imageUrl } : {}),
      ...(values.lang !== EVERY ? { lang: values.lang } : {}),
      ...(values.publishedAt ? { publishedAt: values.publishedAt.toISOString() } : {}),
    };
    const saved = await run(() =>
      editing === 'new' || editing === null
        ? api.command('/api/admin/news/create', params, newsRecordSchema)
        : api.command('/api/admin/news/update', { ...params, id: editing.id }, newsRecordSchema),
    );
    if (!saved) return false;
    await list.reload();
    return true;
  };
  const remove = (item: NewsRecord) =>
    confirm(t('content.confirm_news_delete', { title: item.title }), async () => {
      if (await run(() => api.command('/api/admin/news/delete', { id: item.id }, doneDataSchema)))
        await list.reload();
    });

  return (
    <>
      <Space className="console-filters">
        <Button type="primary" onClick={() => setEditing('new')}>
          {t('content.news_create')}
        </Button>
      </Space>
      <ConsoleTable<NewsRecord>
        label={t('content.news')}
        rowKey="id"
        loading={list.loading}
        dataSource={list.items}
        columns={[
          { title: t('common.id'), dataIndex: 'id' },
          { title: t('field.title'), dataIndex: 'title' },
          { title: t('field.lang'), dataIndex: 'lang', render: nameOf },
          { title: t('content.published'), dataIndex: 'publishedAt', render: formatTime },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_value, item) => (
              <Space wrap>
                <RowButton label={t('content.news_edit')} row={item.title} onClick={() => setEditing(item)} />
                <RowButton
                  label={t('content.news_delete')}
                  row={item.title}
                  tone="danger"
                  onClick={() => remove(item)}
                />
              </Space>
            ),
          },
        ]}
      />
      <LoadMore list={list} />
      {editing !== null ? (
        <FormDialog<NewsForm>
          open
          name="news"
          title={editing === 'new' ? t('content.news_create') : t('content.news_edit')}
          initialValues={
            editing === 'new'
              ? { lang: EVERY }
              : {
                  title: editing.title,
                  summary: editing.summary,
                  body: editing.body,
                  imageUrl: editing.imageUrl ?? '',
                  lang: editing.lang ?? EVERY,
                }
          }
          effect={(values) =>
            editing === 'new'
              ? t('content.confirm_news_create', { title: values.title ?? '…', lang: nameOf(values.lang) })
              : t('content.confirm_news_update', { title: values.title ?? editing.title })
          }
          onClose={() => setEditing(null)}
          onSubmit={save}
        >
          <InputField label="field.title" name="title" required maxLength={120} />
          <Field label="field.summary" name="summary" required>
            <Input.TextArea rows={2} maxLength={300} />
          </Field>
          <Field label="field.body" name="body" required>
            <Input.TextArea rows={6} maxLength={20000} />
          </Field>
          <InputField label="field.imageUrl" name="imageUrl" maxLength={500} />
          <LanguageField />
          <Field label="field.publishedAt" name="publishedAt">
            <DatePicker showTime />
          </Field>
        </FormDialog>
      ) : null}
    </>
  );
}

function NoticesTab() {
  const { t } = useI18n();
  const { api } = useConsole();
  const run = useAction();
  const confirm = useConfirm();
  const nameOf = useLanguageName();
  const [items, setItems] = useState<NoticeRecord[]>([]);
  const [creating, setCreating] = useState(false);
  const load = useCallback(async () => {
    const list = await run(() => api.read('/api/v1/notice/list', {}, noticeListDataSchema));
    if (list) setItems(list.items);
  }, [api, run]);
  useEffect(() => {
    void load();
  }, [load]);

  const create = async ({ text, lang }: { text: string; lang: string }) => {
    const params = lang === EVERY ? { text } : { text, lang };
    if (!(await run(() => api.command('/api/admin/notice/create', params, noticeRecordSchema)))) return false;
    await load();
    return true;
  };
  const remove = (item: NoticeRecord) =>
    confirm(t('content.confirm_notice_delete', { text: item.text }), async () => {
      if (await run(() => api.command('/api/admin/notice/delete', { id: item.id }, doneDataSchema)))
        await load();
    });

  return (
    <>
      <Space className="console-filters">
        <Button type="primary" onClick={() => setCreating(true)}>
          {t('content.notice_create')}
        </Button>
      </Space>
      <ConsoleTable<NoticeRecord>
        label={t('content.notices')}
        rowKey="id"
        dataSource={items}
        columns={[
          { title: t('common.id'), dataIndex: 'id' },
          { title: t('field.text'), dataIndex: 'text' },
          { title: t('field.lang'), dataIndex: 'lang', render: nameOf },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_value, item) => (
              <RowButton
                label={t('content.notice_delete')}
                row={item.id}
                tone="danger"
                onClick={() => remove(item)}
              />
            ),
          },
        ]}
      />
      <FormDialog<{ text: string; lang: string }>
        open={creating}
        name="notice"
        title={t('content.notice_create')}
        initialValues={{ lang: EVERY }}
        effect={(values) =>
          t('content.confirm_notice_create', { text: values.text ?? '…', lang: nameOf(values.lang) })
        }
        onClose={() => setCreating(false)}
        onSubmit={create}
      >
        <InputField label="field.text" name="text" required maxLength={300} />
        <LanguageField />
      </FormDialog>
    </>
  );
}

function QuotesTab() {
  const { t } = useI18n();
  const { api } = useConsole();
  const run = useAction();
  const [items, setItems] = useState<QuoteRecord[]>([]);
  const [editing, setEditing] = useState<Partial<QuoteRecord> | null>(null);
  const load = useCallback(async () => {
    const list = await run(() => api.read('/api/v1/quote/list', {}, quoteListDataSchema));
    if (list) setItems(list.items);
  }, [api, run]);
  useEffect(() => {
    void load();
  }, [load]);

  const set = async (values: { symbol: string; name: string; price: string }) => {
    if (!(await run(() => api.command('/api/admin/quote/set', values, quoteRecordSchema)))) return false;
    await load();
    return true;
  };

  return (
    <>
      <Space className="console-filters">
        <Button type="primary" onClick={() => setEditing({})}>
          {t('content.quote_set')}
        </Button>
      </Space>
      <ConsoleTable<QuoteRecord>
        label={t('content.quotes')}
        rowKey="id"
        dataSource={items}
        columns={[
          { title: t('field.symbol'), dataIndex: 'id' },
          { title: t('field.name'), dataIndex: 'name' },
          { title: t('field.price'), dataIndex: 'price' },
          { title: t('content.change'), dataIndex: 'changePercent', render: (value: string) => `${value}%` },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_value, item) => (
              <RowButton
                label={t('content.news_edit')}
                action={t('content.quote_set')}
                row={item.id}
                onClick={() => setEditing(item)}
              />
            ),
          },
        ]}
      />
      {editing !== null ? (
        <FormDialog<{ symbol: string; name: string; price: string }>
          open
          name="quote"
          title={t('content.quote_set')}
          initialValues={{ symbol: editing.id ?? '', name: editing.name ?? '', price: editing.price ?? '' }}
          effect={(values) =>
            t('content.confirm_quote', {
              symbol: values.symbol || '…',
              name: values.name || '…',
              price: values.price || '…',
            })
          }
          onClose={() => setEditing(null)}
          onSubmit={set}
        >
          <InputField label="field.symbol" name="symbol" required maxLength={20} placeholder="BTC/USDT" />
          <InputField label="field.name" name="name" required maxLength={40} />
          <InputField label="field.price" name="price" required inputMode="decimal" maxLength={40} />
        </FormDialog>
      ) : null}
    </>
  );
}
