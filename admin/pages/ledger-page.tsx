/**
 * The ledger: adjustments and their four-eyes queue (approve or reject one another operator
 * asked for), a new adjustment, and the ledger check; each action behind a dialog that states it.
 */
import { Alert, Button, Select, Space } from 'antd';
import { useState } from 'react';
import type { z } from 'zod';
import {
  ADJUSTMENT_STATUSES,
  adjustmentListDataSchema,
  adjustmentStatusDataSchema,
  ledgerCheckDataSchema,
  type Adjustment,
} from '../../contract/api/admin.js';
import { useConsole } from '../app/context.js';
import { useI18n } from '../i18n/i18n.js';
import { useConfirm } from '../ui/confirm.js';
import { FormDialog } from '../ui/form-dialog.js';
import { formatTime } from '../ui/format.js';
import { useAction } from '../ui/use-action.js';
import { usePagedList } from '../ui/use-paged-list.js';
import { StatusTag } from '../ui/status-tag.js';
import { Field, InputField } from '../ui/field.js';
import { StatusFilter } from '../ui/filter-select.js';
import { FilterBar, ListPage, RowButton } from '../ui/list-page.js';

type Status = (typeof ADJUSTMENT_STATUSES)[number];
type Check = z.infer<typeof ledgerCheckDataSchema>;
interface AdjustForm {
  accountId: string;
  asset: 'USDT' | 'RAB';
  amount: string;
  reason: string;
}

export function LedgerPage() {
  const { t } = useI18n();
  const { api } = useConsole();
  const run = useAction();
  const confirm = useConfirm();
  const [status, setStatus] = useState<Status | 'all'>('pending_review');
  const list = usePagedList(
    '/api/admin/ledger/adjustments',
    status === 'all' ? {} : { status },
    adjustmentListDataSchema,
  );
  const [adjusting, setAdjusting] = useState(false);
  const [check, setCheck] = useState<Check | null>(null);
  const [checking, setChecking] = useState(false);

  const review = (item: Adjustment, decision: 'approve' | 'reject') =>
    confirm(
      t(decision === 'approve' ? 'ledger.confirm_approve' : 'ledger.confirm_reject', {
        id: item.id,
        amount: item.amount,
        asset: item.asset,
        account: item.accountId,
      }),
      async () => {
        const done = await run(() =>
          api.command(`/api/admin/ledger/${decision}`, { id: item.id }, adjustmentStatusDataSchema),
        );
        if (done) await list.reload();
      },
    );
  const adjust = async (values: AdjustForm) => {
    const done = await run(() => api.command('/api/admin/ledger/adjust', values, adjustmentStatusDataSchema));
    if (!done) return false;
    await list.reload();
    return true;
  };
  const runCheck = async () => {
    setChecking(true);
    const result = await run(() => api.read('/api/admin/ledger/check', {}, ledgerCheckDataSchema));
    setChecking(false);
    if (result) setCheck(result);
  };

  return (
    <ListPage<Adjustment>
      title={t('ledger.title')}
      list={list}
      actions={
        <>
          <Button onClick={() => void runCheck()} loading={checking}>
            {t('ledger.check')}
          </Button>
          <Button type="primary" onClick={() => setAdjusting(true)}>
            {t('ledger.adjust')}
          </Button>
        </>
      }
      filters={
        <>
          {check ? (
            <Alert
              className="console-filters"
              role="status"
              showIcon
              type={check.ok ? 'success' : 'error'}
              title={
                check.ok
                  ? t('ledger.check_ok', { at: formatTime(check.checkedAt) })
                  : t('ledger.check_broken', { count: check.violations.length })
              }
              description={
                check.ok ? undefined : (
                  <ul>
                    {check.violations.map((violation, index) => (
                      <li key={index}>
                        {violation.rule} {violation.asset} {violation.owner ?? ''} {violation.book ?? ''}:{' '}
                        {violation.expected} / {violation.actual}
                      </li>
                    ))}
                  </ul>
                )
              }
            />
          ) : null}
          <FilterBar name="ledger-filter">
            <StatusFilter<Status | 'all'>
              value={status}
              onChange={setStatus}
              withAll
              options={ADJUSTMENT_STATUSES.map((value) => ({ value, label: t(`ledger.status.${value}`) }))}
            />
          </FilterBar>
        </>
      }
      columns={[
        { title: t('common.id'), dataIndex: 'id' },
        { title: t('field.accountId'), dataIndex: 'accountId' },
        {
          title: t('withdrawals.amount'),
          key: 'amount',
          render: (_value, item) => `${item.amount} ${item.asset}`,
        },
        { title: t('field.reason'), dataIndex: 'reason' },
        {
          title: t('common.status'),
          dataIndex: 'status',
          render: (value: Status) => (
            <StatusTag tone={value === 'pending_review' ? 'warn' : value === 'applied' ? 'ok' : 'plain'}>
              {t(`ledger.status.${value}`)}
            </StatusTag>
          ),
        },
        { title: t('ledger.requested_by'), dataIndex: 'requestedBy' },
        { title: t('ledger.reviewed_by'), dataIndex: 'reviewedBy' },
        { title: t('common.created'), dataIndex: 'createdAt', render: formatTime },
        {
          title: t('common.actions'),
          key: 'actions',
          render: (_value, item) =>
            item.status === 'pending_review' ? (
              <Space wrap>
                <RowButton
                  label={t('ledger.approve')}
                  row={item.id}
                  tone="primary"
                  onClick={() => review(item, 'approve')}
                />
                <RowButton
                  label={t('ledger.reject')}
                  row={item.id}
                  tone="danger"
                  onClick={() => review(item, 'reject')}
                />
              </Space>
            ) : null,
        },
      ]}
    >
      <FormDialog<AdjustForm>
        open={adjusting}
        name="ledger-adjust"
        title={t('ledger.adjust')}
        initialValues={{ asset: 'USDT' }}
        effect={(values) =>
          t('ledger.confirm_adjust', {
            account: values.accountId || '…',
            amount: values.amount || '…',
            asset: values.asset ?? 'USDT',
          })
        }
        onClose={() => setAdjusting(false)}
        onSubmit={adjust}
      >
        <InputField label="field.accountId" name="accountId" required maxLength={40} />
        <Field label="field.asset" name="asset">
          <Select options={[{ value: 'USDT' }, { value: 'RAB' }]} />
        </Field>
        <InputField label="field.amount" name="amount" required inputMode="decimal" maxLength={40} />
        <InputField label="field.reason" name="reason" required maxLength={200} />
      </FormDialog>
    </ListPage>
  );
}
