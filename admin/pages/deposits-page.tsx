/**
 * Deposits, newest first, filtered by chain and status: the transaction, its confirmations, the
 * account and its customer, the amount.
 */
import { useState } from 'react';
import type { z } from 'zod';
import { adminDepositListDataSchema } from '../../contract/api/admin-users.js';
import { DEPOSIT_STATUSES, type DepositStatus } from '../../contract/api/recharge.js';
import { CHAINS, type Chain } from '../../contract/constants.js';
import { useI18n } from '../i18n/i18n.js';
import { formatTime } from '../ui/format.js';
import { FilterBar, ListPage, usdtAmountColumn } from '../ui/list-page.js';
import { StatusTag, type Tone } from '../ui/status-tag.js';
import { usePagedList } from '../ui/use-paged-list.js';
import { FilterSelect, StatusFilter } from '../ui/filter-select.js';

type Deposit = z.infer<typeof adminDepositListDataSchema>['items'][number];

const STATUS_TONES: Record<DepositStatus, Tone> = {
  confirming: 'info',
  held: 'warn',
  credited: 'ok',
  below_minimum: 'plain',
  reversed: 'bad',
};

export function DepositsPage() {
  const { t } = useI18n();
  const [chain, setChain] = useState<Chain | 'all'>('all');
  const [status, setStatus] = useState<DepositStatus | 'all'>('all');
  const list = usePagedList(
    '/api/admin/deposit/list',
    { ...(chain === 'all' ? {} : { chain }), ...(status === 'all' ? {} : { status }) },
    adminDepositListDataSchema,
  );

  return (
    <ListPage<Deposit>
      title={t('deposits.title')}
      list={list}
      filters={
        <FilterBar name="deposits-filter">
          <FilterSelect<Chain | 'all'>
            label={t('dashboard.chain')}
            name="chain"
            value={chain}
            onChange={setChain}
            withAll
            options={CHAINS.map((value) => ({ value, label: value }))}
          />
          <StatusFilter<DepositStatus | 'all'>
            value={status}
            onChange={setStatus}
            withAll
            options={DEPOSIT_STATUSES.map((value) => ({ value, label: t(`deposits.status.${value}`) }))}
          />
        </FilterBar>
      }
      columns={[
        { title: t('common.id'), dataIndex: 'id' },
        { title: t('dashboard.chain'), dataIndex: 'chain' },
        usdtAmountColumn(t),
        {
          title: t('common.status'),
          dataIndex: 'status',
          render: (value: DepositStatus) => (
            <StatusTag tone={STATUS_TONES[value]}>{t(`deposits.status.${value}`)}</StatusTag>
          ),
        },
        { title: t('deposits.confirmations'), dataIndex: 'confirmations' },
        {
          title: t('deposits.transaction'),
          key: 'tx',
          render: (_value, item) => (
            <span className="console-break">
              {item.txHash} #{item.logIndex}
            </span>
          ),
        },
        {
          title: t('deposits.customer'),
          key: 'customer',
          render: (_value, item) => (
            <span className="console-break">
              {item.email} ({t('deposits.user_account', { user: item.userId, account: item.accountId })})
            </span>
          ),
        },
        { title: t('deposits.detected'), dataIndex: 'detectedAt', render: formatTime },
      ]}
    />
  );
}
