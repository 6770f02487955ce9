/**
 * What hosting products and machines share: the list with add, edit and disable, the name in
 * each of the seven languages (Simplified Chinese required when adding; the server fills the
 * languages left empty from it), and the status an edit may set again.
 */
import { Button, Input, Radio } from 'antd';
import { useState, type ReactNode } from 'react';
import type { z } from 'zod';
import { LOCALES, type Locale } from '../../../contract/locales.js';
import { useConsole } from '../../app/context.js';
import { RowButton } from '../../ui/list-page.js';
import { useI18n, type MessageKey } from '../../i18n/i18n.js';
import { useConfirm } from '../../ui/confirm.js';
import { ConsoleTable } from '../../ui/console-table.js';
import { Field, InputField } from '../../ui/field.js';
import { FormDialog } from '../../ui/form-dialog.js';
import { StatusTag } from '../../ui/status-tag.js';
import { useAction } from '../../ui/use-action.js';
import { typedParams } from './form-values.js';
import { useLoaded } from './use-loaded.js';

export interface CatalogueItem {
  id: string;
  names: Record<string, string>;
  days: number;
  status: 'active' | 'disabled';
}

/** The form's common fields: the names by language and (when editing) the status. */
export interface CatalogueForm {
  name?: Partial<Record<Locale, string>>;
  status?: 'active' | 'disabled';
}

export const nameOf = (item: CatalogueItem, locale: string) =>
  item.names[locale] || item.names['en'] || item.id;

/** The name a confirmation names: the Chinese or English typed so far, else the item's own, else "…". */
const draftNameOf = (typed: CatalogueForm['name'] | undefined, item: CatalogueItem | null, locale: string) =>
  typed?.['zh-Hans'] || typed?.en || (item ? nameOf(item, locale) : '…');

/** One of a product's number fields: required when adding unless `optional`. */
export interface TermInput {
  name: string;
  label: MessageKey;
  inputMode: 'numeric' | 'decimal';
  maxLength: number;
  optional?: true;
}

/** A product's number fields, in the order given. */
export function TermInputs({ inputs, adding }: { inputs: readonly TermInput[]; adding: boolean }) {
  return (
    <>
      {inputs.map(({ optional, ...input }) => (
        <InputField key={input.name} required={adding && !optional} {...input} />
      ))}
    </>
  );
}

const namesOf = (item: CatalogueItem): Partial<Record<Locale, string>> =>
  Object.fromEntries(LOCALES.map((language) => [language, item.names[language] ?? '']));

/** The `name` parameter: the languages filled in (the server fills the rest). */
export const nameParamOf = (name: CatalogueForm['name']) =>
  Object.fromEntries(Object.entries(name ?? {}).filter(([, value]) => Boolean(value?.trim())));

export function CatalogueSection<T extends CatalogueItem, F extends CatalogueForm>({
  kind,
  route,
  listSchema,
  itemSchema,
  termsOf,
  valuesOf,
  effectOf,
  fields,
}: {
  kind: 'hosting' | 'machines';
  /** The routes' common stem: `<route>/list`, `/add`, `/update` and `/disable`. */
  route: string;
  listSchema: z.ZodType<{ items: T[] }>;
  itemSchema: z.ZodType<T>;
  /** The terms column of a row. */
  termsOf(item: T): string;
  /** An item's values in the edit form. */
  valuesOf(item: T): Partial<F>;
  /** What Confirm does, from the values typed so far (`name`: the one typed, else the item's). */
  effectOf(values: Partial<F>, name: string, item: T | null): string;
  /** The form's own fields (after the names); required when adding. */
  fields(adding: boolean): ReactNode;
}) {
  const { t, locale } = useI18n();
  const { api } = useConsole();
  const run = useAction();
  const confirm = useConfirm();
  const paths = {
    list: `${route}/list`,
    add: `${route}/add`,
    update: `${route}/update`,
    disable: `${route}/disable`,
  };
  const list = useLoaded(paths.list, listSchema);
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  const item = editing === 'new' ? null : editing;
  const title = t(item ? `products.${kind}_edit` : `products.${kind}_add`);

  const disable = (row: T) =>
    confirm(t('products.confirm_disable', { name: nameOf(row, locale) }), async () => {
      const done = await run(() => api.command(paths.disable, { id: row.id }, itemSchema));
      if (done) await list.reload();
    });
  const submit = async (values: F) => {
    const name = nameParamOf(values.name);
    const params = {
      ...typedParams(values),
      ...(Object.keys(name).length > 0 ? { name } : {}),
      ...(item ? { id: item.id } : {}),
    };
    const done = await run(() => api.command(item ? paths.update : paths.add, params, itemSchema));
    if (!done) return false;
    await list.reload();
    return true;
  };

  return (
    <>
      <div className="console-filters">
        <Button type="primary" onClick={() => setEditing('new')}>
          {t(`products.${kind}_add`)}
        </Button>
      </div>
      <ConsoleTable<T>
        label={t(`products.${kind}`)}
        rowKey="id"
        dataSource={list.data?.items ?? []}
        columns={[
          { title: t('common.id'), dataIndex: 'id' },
          { title: t('field.name'), key: 'name', render: (_value, row) => nameOf(row, locale) },
          { title: t('products.days'), dataIndex: 'days' },
          { title: t('products.terms'), key: 'terms', render: (_value, row) => termsOf(row) },
          {
            title: t('common.status'),
            dataIndex: 'status',
            render: (status: string) => (
              <StatusTag tone={status === 'active' ? 'ok' : 'plain'}>
                {t(`products.status.${status === 'active' ? 'active' : 'disabled'}`)}
              </StatusTag>
            ),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_value, row) => (
              <span className="console-actions">
                <RowButton
                  label={t('products.edit')}
                  row={nameOf(row, locale)}
                  onClick={() => setEditing(row)}
                />
                {row.status === 'active' ? (
                  <RowButton
                    label={t('products.disable')}
                    row={nameOf(row, locale)}
                    tone="danger"
                    onClick={() => disable(row)}
                  />
                ) : null}
              </span>
            ),
          },
        ]}
      />
      <FormDialog<F>
        key={item?.id ?? 'new'}
        open={editing !== null}
        name={kind}
        title={title}
        {...(item ? { initialValues: { ...valuesOf(item), name: namesOf(item), status: item.status } } : {})}
        effect={(values) => effectOf(values, draftNameOf(values.name, item, locale), item)}
        onClose={() => setEditing(null)}
        onSubmit={submit}
      >
        {LOCALES.map((language) => (
          <Field
            key={language}
            label="products.name_in"
            vars={{ language: t(`locale.${language}`) }}
            name={['name', language]}
            required={language === 'zh-Hans' && !item}
          >
            <Input maxLength={40} />
          </Field>
        ))}
        {fields(!item)}
        {item ? (
          <Field label="common.status" name="status">
            <Radio.Group
              options={(['active', 'disabled'] as const).map((value) => ({
                value,
                label: t(`products.status.${value}`),
              }))}
            />
          </Field>
        ) : null}
      </FormDialog>
    </>
  );
}
