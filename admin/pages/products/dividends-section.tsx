/** AI dividends: the published ones, newest first, and publish a day's dividend (a total or a rate). */
import { Button, Radio } from 'antd';
import { useState } from 'react';
import {
  adminDividendListDataSchema,
  dividendSchema,
  type Dividend,
} from '../../../contract/api/dividend.js';
import { useConsole } from '../../app/context.js';
import { PagedTable } from '../../ui/list-page.js';
import { useI18n } from '../../i18n/i18n.js';
import { Field, InputField } from '../../ui/field.js';
import { FormDialog } from '../../ui/form-dialog.js';
import { formatTime } from '../../ui/format.js';
import { useAction } from '../../ui/use-action.js';
import { usePagedList } from '../../ui/use-paged-list.js';

interface PublishForm {
  day: string;
  mode: 'total' | 'rate';
  total?: string;
  rate?: string;
}

export function DividendsSection() {
  const { t } = useI18n();
  const { api } = useConsole();
  const run = useAction();
  const list = usePagedList('/api/admin/dividend/list', {}, adminDividendListDataSchema);
  const [open, setOpen] = useState(false);

  const publish = async (values: PublishForm, form: Parameters<typeof run>[1]) => {
    const params =
      values.mode === 'total'
        ? { day: values.day.trim(), total: values.total?.trim() }
        : { day: values.day.trim(), rate: values.rate?.trim() };
    const done = await run(() => api.command('/api/admin/dividend/publish', params, dividendSchema), form);
    if (!done) return false;
    await list.reload();
    return true;
  };

  return (
    <>
      <div className="console-filters">
        <Button type="primary" onClick={() => setOpen(true)}>
          {t('products.dividend_publish')}
        </Button>
      </div>
      <PagedTable<Dividend>
        label={t('products.dividends')}
        list={list}
        columns={[
          { title: t('products.dividend_day'), dataIndex: 'day' },
          {
            title: t('products.dividend_mode'),
            dataIndex: 'mode',
            render: (mode: Dividend['mode']) => t(`products.dividend_mode.${mode}`),
          },
          { title: t('products.dividend_total'), dataIndex: 'total' },
          {
            title: t('products.dividend_rate'),
            dataIndex: 'rate',
            render: (rate: string | null) => rate ?? '',
          },
          { title: t('products.dividend_accounts'), dataIndex: 'accounts' },
          { title: t('products.dividend_distributed'), dataIndex: 'distributed' },
          { title: t('products.dividend_residue'), dataIndex: 'residue' },
          { title: t('products.dividend_expires'), dataIndex: 'expiresAt', render: formatTime },
          { title: t('common.created'), dataIndex: 'createdAt', render: formatTime },
        ]}
      />
      <FormDialog<PublishForm>
        open={open}
        name="dividend"
        title={t('products.dividend_publish')}
        initialValues={{ mode: 'total' }}
        effect={(values) =>
          values.mode === 'rate'
            ? t('products.confirm_dividend_rate', { day: values.day || '…', rate: values.rate || '…' })
            : t('products.confirm_dividend_total', { day: values.day || '…', total: values.total || '…' })
        }
        onClose={() => setOpen(false)}
        onSubmit={publish}
      >
        <DividendFields />
      </FormDialog>
    </>
  );
}

/** The day, then the total or the rate as the mode chosen says. */
function DividendFields() {
  const { t } = useI18n();
  const [mode, setMode] = useState<PublishForm['mode']>('total');
  return (
    <>
      <InputField label="products.dividend_day_input" name="day" required maxLength={10} />
      <Field label="products.dividend_mode" name="mode">
        <Radio.Group
          onChange={(event) => setMode(event.target.value === 'rate' ? 'rate' : 'total')}
          options={(['total', 'rate'] as const).map((value) => ({
            value,
            label: t(`products.dividend_mode.${value}`),
          }))}
        />
      </Field>
      {mode === 'total' ? (
        <InputField
          label="products.dividend_total_input"
          name="total"
          required
          inputMode="decimal"
          maxLength={40}
        />
      ) : (
        <InputField
          label="products.dividend_rate_input"
          name="rate"
          required
          inputMode="decimal"
          maxLength={20}
        />
      )}
    </>
  );
}
