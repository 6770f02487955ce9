/**
 * Delivery (trade settlement) records: the published ones (withdraw one), add one, or import a
 * CSV file: the file is first read in the browser with the server's own rules
 * (contract/delivery-csv.ts) and shown line by line with what is wrong with each; it is sent
 * only when every line is good, and the server, which checks it again, publishes all or none.
 */
import { Button, Input, Radio } from 'antd';
import { useId, useState, type ChangeEvent } from 'react';
import {
  DELIVERY_COLUMNS,
  DELIVERY_DIRECTIONS,
  DELIVERY_IMPORT_MAX_CHARS,
  deliveryDeleteDataSchema,
  deliveryImportDataSchema,
  deliveryListDataSchema,
  deliveryRecordSchema,
  type DeliveryRecord,
} from '../../../contract/api/delivery.js';
import {
  checkDeliveryCsv,
  type DeliveryCsvLine,
  type DeliveryCsvProblem,
} from '../../../contract/delivery-csv.js';
import { useConsole } from '../../app/context.js';
import { useI18n, type Translate } from '../../i18n/i18n.js';
import { useConfirm } from '../../ui/confirm.js';
import { Field } from '../../ui/field.js';
import { FormDialog } from '../../ui/form-dialog.js';
import { formatTime } from '../../ui/format.js';
import { ConsoleTable } from '../../ui/console-table.js';
import { PagedTable, RowButton } from '../../ui/list-page.js';
import { useAction } from '../../ui/use-action.js';
import { usePagedList } from '../../ui/use-paged-list.js';
import { typedParams } from './form-values.js';

type Column = (typeof DELIVERY_COLUMNS)[number];
type AddForm = Partial<Record<Column, string>>;

const columnName = (t: Translate, column: string) =>
  (DELIVERY_COLUMNS as readonly string[]).includes(column)
    ? t(`products.delivery.${column as Column}`)
    : column;

/** A problem of the file or a line, in the operator's language. */
export function problemText(t: Translate, problem: DeliveryCsvProblem): string {
  switch (problem.key) {
    case 'delivery_csv_header':
      return t('products.csv.header', { columns: DELIVERY_COLUMNS.join(', ') });
    case 'delivery_csv_empty':
      return t('products.csv.empty');
    case 'delivery_csv_too_many':
      return t('products.csv.too_many', { max: problem.max });
    case 'delivery_csv_syntax':
      return t('products.csv.syntax', { line: problem.line });
    case 'delivery_csv_columns':
      return t('products.csv.columns', {
        line: problem.line,
        count: problem.count,
        expected: problem.expected,
      });
    case 'delivery_csv_duplicate':
      return t('products.csv.duplicate', {
        line: problem.line,
        orderNo: problem.orderNo,
        first: problem.first,
      });
    case 'delivery_csv_close_before_open':
      return t('products.csv.close_before_open', { line: problem.line });
    default:
      return t('products.csv.row_invalid', { line: problem.line, field: columnName(t, problem.column) });
  }
}

interface Preview {
  file: string;
  csv: string;
  problem: DeliveryCsvProblem | null;
  lines: DeliveryCsvLine[];
}

export function DeliverySection() {
  const { t } = useI18n();
  const { api } = useConsole();
  const run = useAction();
  const confirm = useConfirm();
  const list = usePagedList('/api/v1/hosting/delivery-list', {}, deliveryListDataSchema);
  const [adding, setAdding] = useState(false);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [inputKey, setInputKey] = useState(0);
  const [done, setDone] = useState<string | null>(null);
  const fileId = useId();

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setDone(null);
    if (!file) return setPreview(null);
    const csv = await file.text();
    const tooLong = csv.length > DELIVERY_IMPORT_MAX_CHARS;
    const checked = tooLong ? null : checkDeliveryCsv(csv);
    setPreview({
      file: file.name,
      csv,
      problem: checked?.problem ?? null,
      lines: checked?.lines ?? [],
    });
  };
  const previewTooLong = preview !== null && preview.csv.length > DELIVERY_IMPORT_MAX_CHARS;
  const bad = preview ? preview.lines.filter((line) => line.problem !== null).length : 0;
  const ready = preview !== null && !previewTooLong && preview.problem === null && bad === 0;

  const importFile = () => {
    if (!preview || !ready) return;
    confirm(
      t('products.confirm_delivery_import', { count: preview.lines.length, file: preview.file }),
      async () => {
        const result = await run(() =>
          api.command('/api/admin/hosting/delivery/import', { csv: preview.csv }, deliveryImportDataSchema),
        );
        if (!result) return;
        setDone(t('products.delivery_imported', { count: result.imported }));
        setPreview(null);
        setInputKey((key) => key + 1);
        await list.reload();
      },
    );
  };
  const add = async (values: AddForm) => {
    const added = await run(() =>
      api.command('/api/admin/hosting/delivery/add', typedParams(values), deliveryRecordSchema),
    );
    if (!added) return false;
    await list.reload();
    return true;
  };
  const remove = (item: DeliveryRecord) =>
    confirm(t('products.confirm_delivery_delete', { orderNo: item.orderNo }), async () => {
      const removed = await run(() =>
        api.command('/api/admin/hosting/delivery/delete', { id: item.id }, deliveryDeleteDataSchema),
      );
      if (removed) await list.reload();
    });

  return (
    <>
      <h2 className="console-section-title">{t('products.delivery_import')}</h2>
      <p>{t('products.delivery_import_hint', { columns: DELIVERY_COLUMNS.join(', ') })}</p>
      <p>{t('products.delivery_times_hint')}</p>
      <div className="console-filters">
        <label htmlFor={fileId}>{t('products.delivery_file')}</label>
        <input
          key={inputKey}
          id={fileId}
          type="file"
          accept=".csv,text/csv"
          onChange={(event) => void choose(event)}
        />
      </div>
      {done ? <p role="status">{done}</p> : null}
      {preview ? (
        <>
          <p role="status" className={ready ? undefined : 'console-preview-bad'}>
            {previewTooLong
              ? t('products.csv.too_long', { max: DELIVERY_IMPORT_MAX_CHARS })
              : preview.problem
                ? problemText(t, preview.problem)
                : ready
                  ? t('products.csv.ready', { count: preview.lines.length })
                  : t('products.csv.bad_lines', { count: bad, total: preview.lines.length })}
          </p>
          {preview.lines.length > 0 ? (
            <ConsoleTable<DeliveryCsvLine>
              label={t('products.delivery_preview')}
              rowKey="line"
              dataSource={preview.lines}
              columns={[
                { title: t('products.csv.line'), dataIndex: 'line' },
                {
                  title: t('products.csv.problem'),
                  key: 'problem',
                  render: (_value, line) =>
                    line.problem ? (
                      <span className="console-preview-bad">{problemText(t, line.problem)}</span>
                    ) : (
                      t('products.csv.line_ok')
                    ),
                },
                ...DELIVERY_COLUMNS.map((column) => ({
                  title: columnName(t, column),
                  key: column,
                  render: (_value: unknown, line: DeliveryCsvLine) => line.values[column] ?? '',
                })),
              ]}
            />
          ) : null}
          <div className="console-more">
            <Button type="primary" disabled={!ready} onClick={importFile}>
              {t('products.delivery_import_send', { count: preview.lines.length })}
            </Button>
          </div>
        </>
      ) : null}

      <h2 className="console-section-title">{t('products.delivery_published')}</h2>
      <div className="console-filters">
        <Button onClick={() => setAdding(true)}>{t('products.delivery_add')}</Button>
      </div>
      <PagedTable<DeliveryRecord>
        label={t('products.delivery_published')}
        list={list}
        columns={[
          ...DELIVERY_COLUMNS.map((column) => ({
            title: columnName(t, column),
            key: column,
            render: (_value: unknown, item: DeliveryRecord) =>
              column === 'openTime' || column === 'closeTime'
                ? formatTime(item[column])
                : column === 'direction'
                  ? t(`products.direction.${item.direction}`)
                  : String(item[column]),
          })),
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_value, item) => (
              <RowButton
                label={t('products.remove')}
                row={item.orderNo}
                tone="danger"
                onClick={() => remove(item)}
              />
            ),
          },
        ]}
      />
      <FormDialog<AddForm>
        open={adding}
        name="delivery"
        title={t('products.delivery_add')}
        effect={(values) =>
          t('products.confirm_delivery_add', { orderNo: values.orderNo || '…', symbol: values.symbol || '…' })
        }
        onClose={() => setAdding(false)}
        onSubmit={add}
      >
        {DELIVERY_COLUMNS.map((column) =>
          column === 'direction' ? (
            <Field key={column} label="products.delivery.direction" name={column} required>
              <Radio.Group
                options={DELIVERY_DIRECTIONS.map((value) => ({
                  value,
                  label: t(`products.direction.${value}`),
                }))}
              />
            </Field>
          ) : (
            <Field key={column} label={`products.delivery.${column}`} name={column} required>
              <Input maxLength={40} />
            </Field>
          ),
        )}
      </FormDialog>
    </>
  );
}
