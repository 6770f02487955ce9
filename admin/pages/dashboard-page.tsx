/**
 * The dashboard: what customers are owed per asset (the ledger's cash, held and hosting books)
 * beside what the chains hold at Coffer's addresses (a chain not read says so) and their ratio;
 * the last ledger check and its time, with a button to run one (finance, as the server allows);
 * what waits for a person, each a link to its screen when the operator's role may open it; and
 * today's deposits and withdrawals.
 */
import { Alert, Button, Descriptions, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  CONSOLE_ACTIONS,
  CONSOLE_SCREENS,
  roleMayUse,
  type ConsoleScreenKey,
} from '../../contract/admin-menu.js';
import { ledgerCheckDataSchema } from '../../contract/api/admin.js';
import { dashboardDataSchema, type DashboardData } from '../../contract/api/admin-users.js';
import { useConsole } from '../app/context.js';
import { useI18n } from '../i18n/i18n.js';
import { useConfirm } from '../ui/confirm.js';
import { ConsoleTable } from '../ui/console-table.js';
import { formatAmount, formatTime } from '../ui/format.js';
import { Page } from '../ui/page.js';
import { useAction } from '../ui/use-action.js';

type Books = DashboardData['liabilities']['USDT'];

export function DashboardPage() {
  const { t } = useI18n();
  const { api, me } = useConsole();
  const run = useAction();
  const confirm = useConfirm();
  const [data, setData] = useState<DashboardData | null>(null);
  const [loading, setLoading] = useState(true);

  const load = useCallback(async () => {
    setLoading(true);
    const read = await run(() => api.read('/api/admin/dashboard', {}, dashboardDataSchema));
    setLoading(false);
    if (read) setData(read);
  }, [api, run]);
  useEffect(() => {
    void load();
  }, [load]);

  const mayOpen = (key: ConsoleScreenKey) => {
    const screen = CONSOLE_SCREENS.find((item) => item.key === key);
    return screen !== undefined && roleMayUse(me.role, screen.roles);
  };
  const runCheck = () =>
    confirm(t('dashboard.confirm_check'), async () => {
      const done = await run(() => api.read('/api/admin/ledger/check', {}, ledgerCheckDataSchema));
      if (done) await load();
    });

  const waiting = (key: 'withdrawals' | 'adjustments' | 'feedback', screen: ConsoleScreenKey) => {
    const count = data?.waiting[key] ?? 0;
    const text = t(`dashboard.waiting_${key}`, { count });
    return mayOpen(screen) ? <Link to={`/${screen}`}>{text}</Link> : text;
  };

  return (
    <Page
      title={t('dashboard.title')}
      actions={
        <>
          {roleMayUse(me.role, CONSOLE_ACTIONS.ledgerCheck.roles) ? (
            <Button onClick={runCheck}>{t('dashboard.run_check')}</Button>
          ) : null}
          <Button onClick={() => void load()} loading={loading}>
            {t('common.refresh')}
          </Button>
        </>
      }
    >
      {data ? (
        <>
          <Typography.Paragraph type="secondary">
            {t('dashboard.as_of', { at: formatTime(data.at) })}
          </Typography.Paragraph>
          {data.ledgerCheck === null ? (
            <Alert className="console-filters" type="warning" showIcon title={t('dashboard.check_never')} />
          ) : (
            <Alert
              className="console-filters"
              type={data.ledgerCheck.ok ? 'success' : 'error'}
              showIcon
              title={t(data.ledgerCheck.ok ? 'dashboard.check_ok' : 'dashboard.check_broken', {
                at: formatTime(data.ledgerCheck.at),
              })}
            />
          )}

          <h2 className="console-section">{t('dashboard.liabilities')}</h2>
          <ConsoleTable<Books & { asset: string }>
            label={t('dashboard.liabilities')}
            rowKey="asset"
            dataSource={(['USDT', 'RAB'] as const).map((asset) => ({ asset, ...data.liabilities[asset] }))}
            columns={[
              { title: t('field.asset'), dataIndex: 'asset' },
              ...(['cash', 'held', 'hosting', 'total'] as const).map((book) => ({
                title: t(`dashboard.book_${book}`),
                key: book,
                render: (_value: unknown, row: Books & { asset: string }) =>
                  formatAmount(row[book], row.asset),
              })),
            ]}
          />

          <h2 className="console-section">{t('dashboard.reserves')}</h2>
          <ConsoleTable<{ chain: string; reading: DashboardData['reserves'][string] }>
            label={t('dashboard.reserves')}
            rowKey="chain"
            dataSource={Object.entries(data.reserves).map(([chain, reading]) => ({ chain, reading }))}
            columns={[
              { title: t('dashboard.chain'), dataIndex: 'chain' },
              {
                title: t('dashboard.on_chain'),
                key: 'usdt',
                render: (_value, row) =>
                  row.reading ? formatAmount(row.reading.usdt, 'USDT') : t('dashboard.not_read'),
              },
              {
                title: t('dashboard.block'),
                key: 'block',
                render: (_value, row) => row.reading?.block ?? '',
              },
              {
                title: t('dashboard.addresses'),
                key: 'addresses',
                render: (_value, row) => (row.reading ? String(row.reading.addresses) : ''),
              },
            ]}
          />
          <Descriptions column={1} bordered size="small" className="console-section-body">
            <Descriptions.Item label={t('dashboard.ratio')}>
              {data.ratio ?? t('dashboard.ratio_unknown')}
            </Descriptions.Item>
          </Descriptions>

          <h2 className="console-section">{t('dashboard.waiting')}</h2>
          <ul className="console-home-list">
            <li>{waiting('withdrawals', 'withdrawals')}</li>
            <li>{waiting('adjustments', 'ledger')}</li>
            <li>{waiting('feedback', 'feedback')}</li>
          </ul>

          <h2 className="console-section">{t('dashboard.today', { day: data.today.day })}</h2>
          <Descriptions column={1} bordered size="small">
            <Descriptions.Item label={t('dashboard.deposits_today')}>
              {t('dashboard.flow', {
                count: data.today.deposits.count,
                amount: formatAmount(data.today.deposits.usdt, 'USDT'),
              })}
            </Descriptions.Item>
            <Descriptions.Item label={t('dashboard.withdrawals_today')}>
              {t('dashboard.flow', {
                count: data.today.withdrawals.count,
                amount: formatAmount(data.today.withdrawals.usdt, 'USDT'),
              })}
            </Descriptions.Item>
          </Descriptions>
        </>
      ) : null}
    </Page>
  );
}
