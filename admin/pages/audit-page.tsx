/**
 * The audit log: every operator call, newest first, filtered by operator, action, target and a
 * time range (entered in the operator's local time, sent as ISO times), page by page; the CSV
 * export takes the same filters; "Verify chain" recomputes the hash chain on the server and
 * names a broken row.
 */
import { Alert, Button } from 'antd';
import { useState } from 'react';
import type { z } from 'zod';
import {
  auditExportDataSchema,
  auditListDataSchema,
  auditVerifyDataSchema,
} from '../../contract/api/admin.js';
import { useConsole } from '../app/context.js';
import { useI18n } from '../i18n/i18n.js';
import { formatTime } from '../ui/format.js';
import { useAction } from '../ui/use-action.js';
import { usePagedList } from '../ui/use-paged-list.js';
import { InputField } from '../ui/field.js';
import { FilterBar, ListPage } from '../ui/list-page.js';

type AuditEntry = z.infer<typeof auditListDataSchema>['items'][number];
type Verdict = z.infer<typeof auditVerifyDataSchema>;
type Filters = Partial<Record<'actor' | 'action' | 'target' | 'from' | 'to', string>>;

/** A `datetime-local` value (the operator's local time) as an ISO time; empty stays empty. */
const isoOf = (local: string | undefined) => {
  const at = local ? new Date(local) : null;
  return at && !Number.isNaN(at.getTime()) ? at.toISOString() : undefined;
};

export function AuditPage() {
  const { t } = useI18n();
  const { api } = useConsole();
  const run = useAction();
  const [filters, setFilters] = useState<Filters>({});
  const list = usePagedList('/api/admin/audit/list', filters, auditListDataSchema);
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const [verifying, setVerifying] = useState(false);

  const verify = async () => {
    setVerifying(true);
    const result = await run(() => api.read('/api/admin/audit/verify', {}, auditVerifyDataSchema));
    setVerifying(false);
    if (result) setVerdict(result);
  };
  const exportCsv = async () => {
    const file = await run(() => api.read('/api/admin/audit/export', filters, auditExportDataSchema));
    if (!file) return;
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([file.csv], { type: 'text/csv;charset=utf-8' }));
    link.download = file.filename;
    link.click();
    URL.revokeObjectURL(link.href);
  };
  const apply = (values: Filters) =>
    setFilters(
      Object.fromEntries(
        Object.entries({ ...values, from: isoOf(values.from), to: isoOf(values.to) }).filter(([, value]) =>
          Boolean(value?.trim()),
        ),
      ),
    );

  return (
    <ListPage<AuditEntry>
      title={t('audit.title')}
      list={list}
      actions={
        <>
          <Button onClick={() => void exportCsv()}>{t('audit.export')}</Button>
          <Button onClick={() => void verify()} loading={verifying}>
            {t('audit.verify')}
          </Button>
        </>
      }
      filters={
        <>
          {verdict ? (
            <Alert
              className="console-filters"
              role="status"
              type={verdict.ok ? 'success' : 'error'}
              showIcon
              title={
                verdict.ok
                  ? t('audit.verify_ok', { checked: verdict.checked, before: verdict.beforeChain })
                  : t('audit.verify_broken', { id: verdict.brokenAt ?? '?' })
              }
            />
          ) : null}
          <FilterBar<Filters> name="audit-filter" onFinish={apply}>
            <InputField label="field.actor" name="actor" placeholder="operator:1" maxLength={100} />
            <InputField label="field.action" name="action" maxLength={100} />
            <InputField label="field.target" name="target" maxLength={200} />
            <InputField label="audit.from" name="from" type="datetime-local" step={1} />
            <InputField label="audit.to" name="to" type="datetime-local" step={1} />
            <Button htmlType="submit">{t('common.filter')}</Button>
          </FilterBar>
        </>
      }
      columns={[
        { title: t('common.id'), dataIndex: 'id' },
        { title: t('audit.at'), dataIndex: 'at', render: formatTime },
        { title: t('field.actor'), dataIndex: 'actor' },
        { title: t('field.action'), dataIndex: 'action' },
        { title: t('field.target'), dataIndex: 'target' },
        {
          title: t('audit.detail'),
          dataIndex: 'detail',
          render: (detail: AuditEntry['detail']) => (
            <code className="console-detail">{JSON.stringify(detail)}</code>
          ),
        },
      ]}
    ></ListPage>
  );
}
