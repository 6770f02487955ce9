/**
 * Products and settings (finance): the platform settings (RAB price, newcomer incentive), the
 * hosting products and machines on offer (disable one), income airdrops and ticket issues; each
 * change behind a dialog that states its effect.
 */
import { Button, Descriptions, Form, Input, InputNumber, Radio } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import type { z } from 'zod';
import { platformSettingsSchema, type PlatformSettings } from '../../contract/api/admin.js';
import {
  adminHostingProductListDataSchema,
  adminHostingProductSchema,
  type AdminHostingProduct,
} from '../../contract/api/hosting.js';
import { airdropDataSchema } from '../../contract/api/income.js';
import {
  adminMachineListDataSchema,
  adminMachineSchema,
  ticketIssueDataSchema,
  type AdminMachine,
} from '../../contract/api/machine.js';
import { useConsole } from '../app/context.js';
import { useI18n } from '../i18n/i18n.js';
import { useConfirm } from '../ui/confirm.js';
import { FormDialog } from '../ui/form-dialog.js';
import { Page } from '../ui/page.js';
import { StatusTag } from '../ui/status-tag.js';
import { useAction } from '../ui/use-action.js';
import { ConsoleTable } from '../ui/console-table.js';
import { Field } from '../ui/field.js';

const SECTIONS = ['settings', 'hosting', 'machines', 'airdrop', 'tickets'] as const;
type Section = (typeof SECTIONS)[number];

/** The sections as buttons that wrap at phone width (five tabs would not fit, and antd's overflow menu breaks the tab list's roles). */
export function ProductsPage() {
  const { t } = useI18n();
  const [section, setSection] = useState<Section>('settings');
  return (
    <Page title={t('products.title')}>
      <Radio.Group
        className="console-filters"
        aria-label={t('products.title')}
        optionType="button"
        value={section}
        onChange={(event) => setSection(SECTIONS.find((item) => item === event.target.value) ?? 'settings')}
        options={SECTIONS.map((value) => ({ value, label: t(`products.${value}`) }))}
      />
      {section === 'settings' ? <SettingsTab /> : null}
      {section === 'hosting' ? <CatalogueTab key="hosting" kind="hosting" /> : null}
      {section === 'machines' ? <CatalogueTab key="machines" kind="machines" /> : null}
      {section === 'airdrop' ? <GrantTab key="airdrop" kind="airdrop" /> : null}
      {section === 'tickets' ? <GrantTab key="tickets" kind="tickets" /> : null}
    </Page>
  );
}

/** Reads a list once and again on `reload`. */
function useLoaded<T>(path: string, schema: z.ZodType<T>) {
  const { api } = useConsole();
  const run = useAction();
  const [data, setData] = useState<T | null>(null);
  const reload = useCallback(async () => {
    const read = await run(() => api.read(path, {}, schema));
    if (read) setData(read);
  }, [api, path, run, schema]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, reload };
}

function SettingsTab() {
  const { t } = useI18n();
  const { api } = useConsole();
  const run = useAction();
  const settings = useLoaded('/api/admin/settings', platformSettingsSchema);
  const [editing, setEditing] = useState(false);
  const current = settings.data;
  const update = async (values: Partial<PlatformSettings>) => {
    const params = Object.fromEntries(Object.entries(values).filter(([, value]) => Boolean(value)));
    if (!(await run(() => api.command('/api/admin/settings/update', params, platformSettingsSchema))))
      return false;
    await settings.reload();
    return true;
  };
  if (!current) return null;
  return (
    <>
      <Descriptions column={1} bordered size="small">
        <Descriptions.Item label={t('products.rab_price')}>
          {current.rabPriceUsdt} USDT ({t('products.version')} {current.rabPriceVersion ?? t('common.none')})
        </Descriptions.Item>
        <Descriptions.Item label={t('products.newcomer_incentive')}>
          {current.newcomerIncentive} USDT
        </Descriptions.Item>
      </Descriptions>
      <div className="console-more">
        <Button type="primary" onClick={() => setEditing(true)}>
          {t('products.settings_update')}
        </Button>
      </div>
      <FormDialog<Partial<PlatformSettings>>
        open={editing}
        name="settings"
        title={t('products.settings_update')}
        initialValues={{ rabPriceUsdt: current.rabPriceUsdt, newcomerIncentive: current.newcomerIncentive }}
        effect={(values) =>
          t('products.confirm_settings', {
            price: values.rabPriceUsdt || current.rabPriceUsdt,
            incentive: values.newcomerIncentive || current.newcomerIncentive,
          })
        }
        onClose={() => setEditing(false)}
        onSubmit={update}
      >
        <Field label="products.rab_price" name="rabPriceUsdt">
          <Input inputMode="decimal" maxLength={40} />
        </Field>
        <Field label="products.newcomer_incentive" name="newcomerIncentive">
          <Input inputMode="decimal" maxLength={40} />
        </Field>
      </FormDialog>
    </>
  );
}

type CatalogueItem = AdminHostingProduct | AdminMachine;

function CatalogueTab({ kind }: { kind: 'hosting' | 'machines' }) {
  const { t } = useI18n();
  const { api } = useConsole();
  const run = useAction();
  const confirm = useConfirm();
  const hosting = kind === 'hosting';
  const list = useLoaded<{ items: CatalogueItem[] }>(
    hosting ? '/api/admin/hosting/product/list' : '/api/admin/machine/list',
    hosting ? adminHostingProductListDataSchema : adminMachineListDataSchema,
  );
  const nameOf = (item: CatalogueItem) => ('name' in item ? item.name : '') || (item.names['en'] ?? item.id);
  const disable = (item: CatalogueItem) =>
    confirm(t('products.confirm_disable', { name: nameOf(item) }), async () => {
      const path = hosting ? '/api/admin/hosting/product/disable' : '/api/admin/machine/disable';
      const schema = hosting ? adminHostingProductSchema : adminMachineSchema;
      const done = await run(() => api.command(path, { id: item.id }, schema));
      if (done) await list.reload();
    });
  return (
    <ConsoleTable<CatalogueItem>
      label={t(hosting ? 'products.hosting' : 'products.machines')}
      rowKey="id"
      dataSource={list.data?.items ?? []}
      columns={[
        { title: t('common.id'), dataIndex: 'id' },
        { title: t('field.name'), key: 'name', render: (_value, item) => nameOf(item) },
        { title: t('products.days'), dataIndex: 'days' },
        {
          title: t('products.terms'),
          key: 'terms',
          render: (_value, item) =>
            'dailyRate' in item
              ? `${item.dailyRate} / ${item.minimum} – ${item.maximum} USDT`
              : `${item.price} USDT · ${item.hashPower}`,
        },
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
          render: (_value, item) =>
            item.status === 'active' ? (
              <Button
                size="small"
                danger
                onClick={() => disable(item)}
                aria-label={`${t('products.disable')} ${nameOf(item)}`}
              >
                {t('products.disable')}
              </Button>
            ) : null,
        },
      ]}
    />
  );
}

interface GrantForm {
  accountIds: string;
  amount?: string;
  count?: number;
  reason: string;
}

function GrantTab({ kind }: { kind: 'airdrop' | 'tickets' }) {
  const { t } = useI18n();
  const { api } = useConsole();
  const run = useAction();
  const [form] = Form.useForm<GrantForm>();
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const airdrop = kind === 'airdrop';
  const grant = async (values: GrantForm) => {
    const result = await run(async () =>
      airdrop
        ? (
            await api.command(
              '/api/admin/income/airdrop',
              { accountIds: values.accountIds, amount: values.amount, reason: values.reason },
              airdropDataSchema,
            )
          ).total
        : String(
            (
              await api.command(
                '/api/admin/ticket/issue',
                { accountIds: values.accountIds, count: values.count, reason: values.reason },
                ticketIssueDataSchema,
              )
            ).total,
          ),
    );
    if (result === undefined) return false;
    setDone(t(airdrop ? 'products.airdrop_done' : 'products.tickets_done', { total: result }));
    form.resetFields();
    return true;
  };
  const effect = (values: Partial<GrantForm>) =>
    t(airdrop ? 'products.confirm_airdrop' : 'products.confirm_tickets', {
      accounts: values.accountIds || '…',
      amount: values.amount || '…',
      count: values.count ?? '…',
    });
  return (
    <>
      {done ? <p role="status">{done}</p> : null}
      <Button type="primary" onClick={() => setOpen(true)}>
        {t(airdrop ? 'products.airdrop' : 'products.tickets')}
      </Button>
      <FormDialog<GrantForm>
        open={open}
        name={kind}
        title={t(airdrop ? 'products.airdrop' : 'products.tickets')}
        effect={effect}
        onClose={() => setOpen(false)}
        onSubmit={grant}
      >
        <Field label="products.account_ids" name="accountIds" required>
          <Input.TextArea rows={2} />
        </Field>
        {airdrop ? (
          <Field label="products.amount_each" name="amount" required>
            <Input inputMode="decimal" maxLength={40} />
          </Field>
        ) : (
          <Field label="products.count_each" name="count" required>
            <InputNumber min={1} precision={0} />
          </Field>
        )}
        <Field label="field.reason" name="reason" required>
          <Input maxLength={200} />
        </Field>
      </FormDialog>
    </>
  );
}
