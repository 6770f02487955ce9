/**
 * Customers: search by e-mail, user id or invite code; a customer's page (a drawer) with their
 * accounts and balances, deposits, withdrawals, hosting orders, machines, team and sessions (the
 * server audits the read); and Freeze, Unfreeze and Reset authenticator, each in a dialog that
 * says its effect and asks why, each shown only to the roles its route allows.
 */
import { Button, Descriptions, Form, Grid, Input, Space, Typography, type TableProps } from 'antd';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { CONSOLE_ACTIONS, roleMayUse } from '../../contract/admin-menu.js';
import type { OperatorRole } from '../../contract/api/admin.js';
import {
  adminUserDetailDataSchema,
  adminUserListDataSchema,
  adminUserSchema,
  type AdminUserDetail,
} from '../../contract/api/admin-users.js';
import type { z } from 'zod';
import { useConsole } from '../app/context.js';
import { useI18n, type MessageKey } from '../i18n/i18n.js';
import { ConsoleTable } from '../ui/console-table.js';
import { Field } from '../ui/field.js';
import { FormDialog } from '../ui/form-dialog.js';
import { formatAmount, formatTime } from '../ui/format.js';
import { DetailDrawer, Facts } from '../ui/detail-drawer.js';
import { DetailsLink, FilterBar, ListPage, usdtAmountColumn } from '../ui/list-page.js';
import { StatusTag } from '../ui/status-tag.js';
import { useAction } from '../ui/use-action.js';
import { usePagedList } from '../ui/use-paged-list.js';

type AdminUser = z.infer<typeof adminUserSchema>;
type Action = 'freeze' | 'unfreeze' | 'reset';

const ACTIONS: Record<
  Action,
  { route: string; roles: readonly OperatorRole[]; title: MessageKey; effect: MessageKey }
> = {
  freeze: { ...CONSOLE_ACTIONS.userFreeze, title: 'users.freeze', effect: 'users.confirm_freeze' },
  unfreeze: { ...CONSOLE_ACTIONS.userUnfreeze, title: 'users.unfreeze', effect: 'users.confirm_unfreeze' },
  reset: {
    ...CONSOLE_ACTIONS.userResetAuthenticator,
    title: 'users.reset_authenticator',
    effect: 'users.confirm_reset_authenticator',
  },
};

/** A product's or a machine's name in the console's language, else any. */
const nameIn = (names: Record<string, string>, locale: string) =>
  names[locale] ?? names['en'] ?? Object.values(names)[0] ?? '';

export function UsersPage() {
  const { t } = useI18n();
  const [q, setQ] = useState('');
  const list = usePagedList('/api/admin/user/list', q ? { q } : {}, adminUserListDataSchema);
  const [openId, setOpenId] = useState<string | null>(null);

  const frozenTag = (frozen: boolean) =>
    frozen ? (
      <StatusTag tone="bad">{t('users.frozen')}</StatusTag>
    ) : (
      <StatusTag tone="ok">{t('users.active')}</StatusTag>
    );

  return (
    <ListPage<AdminUser>
      title={t('users.title')}
      list={list}
      filters={
        <FilterBar<{ q?: string }>
          className="console-filters console-search-form"
          name="users-search"
          onFinish={({ q: typed }) => setQ((typed ?? '').trim())}
        >
          <Form.Item label={t('users.search')} name="q">
            <Input allowClear maxLength={200} className="console-search-input" />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit">
              {t('users.search_submit')}
            </Button>
          </Form.Item>
        </FilterBar>
      }
      columns={[
        {
          title: t('common.id'),
          dataIndex: 'id',
          render: (id: string) => <DetailsLink text={id} onOpen={() => setOpenId(id)} />,
        },
        {
          title: t('field.email'),
          dataIndex: 'email',
          render: (email: string) => <span className="console-break">{email}</span>,
        },
        { title: t('users.nickname'), dataIndex: 'nickname' },
        { title: t('users.invite_code'), dataIndex: 'inviteCode' },
        { title: t('users.kyc'), dataIndex: 'kycStatus' },
        { title: t('common.status'), dataIndex: 'frozen', render: frozenTag },
        { title: t('common.created'), dataIndex: 'createdAt', render: formatTime },
      ]}
    >
      {openId !== null ? (
        <UserDrawer
          userId={openId}
          onClose={() => setOpenId(null)}
          onChanged={() => void list.reload()}
          frozenTag={frozenTag}
        />
      ) : null}
    </ListPage>
  );
}

function UserDrawer({
  userId,
  onClose,
  onChanged,
  frozenTag,
}: {
  userId: string;
  onClose(): void;
  onChanged(): void;
  frozenTag(frozen: boolean): ReactNode;
}) {
  const { t, locale } = useI18n();
  const { api, me } = useConsole();
  const run = useAction();
  const wide = Grid.useBreakpoint().md !== false;
  const [detail, setDetail] = useState<AdminUserDetail | null>(null);
  const [dialog, setDialog] = useState<Action | null>(null);

  const load = useCallback(async () => {
    const read = await run(() => api.read('/api/admin/user/detail', { userId }, adminUserDetailDataSchema));
    if (read) setDetail(read);
  }, [api, run, userId]);
  useEffect(() => {
    void load();
  }, [load]);

  const act = async (action: Action, reason: string) => {
    const done = await run(() => api.command(ACTIONS[action].route, { userId, reason }, adminUserSchema));
    if (!done) return false;
    await load();
    onChanged();
    return true;
  };
  const may = (action: Action) => roleMayUse(me.role, ACTIONS[action].roles);
  const user = detail?.user;

  return (
    <DetailDrawer
      open
      onClose={onClose}
      title={user ? t('users.detail_title', { email: user.email }) : t('common.loading')}
      size={wide ? 760 : '100%'}
    >
      {detail && user ? (
        <>
          <Facts>
            <Descriptions.Item label={t('common.id')}>{user.id}</Descriptions.Item>
            <Descriptions.Item label={t('field.email')}>
              <span className="console-break">{user.email}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('users.nickname')}>{user.nickname}</Descriptions.Item>
            <Descriptions.Item label={t('users.invite_code')}>{user.inviteCode}</Descriptions.Item>
            <Descriptions.Item label={t('users.kyc')}>{user.kycStatus}</Descriptions.Item>
            <Descriptions.Item label={t('common.status')}>
              {frozenTag(user.frozen)} {user.frozenReason ?? ''}
            </Descriptions.Item>
            <Descriptions.Item label={t('users.authenticator')}>
              {user.authenticatorBound ? t('users.bound') : t('users.not_bound')}
            </Descriptions.Item>
            <Descriptions.Item label={t('users.referrer')}>
              {user.referrer ? `${user.referrer.email} (${user.referrer.id})` : t('common.none')}
            </Descriptions.Item>
            <Descriptions.Item label={t('users.team')}>
              {t('users.team_counts', { first: user.team.first, second: user.team.second })}
            </Descriptions.Item>
            <Descriptions.Item label={t('common.created')}>{formatTime(user.createdAt)}</Descriptions.Item>
          </Facts>
          <Space wrap className="console-more">
            {!user.frozen && may('freeze') ? (
              <Button danger onClick={() => setDialog('freeze')}>
                {t('users.freeze')}
              </Button>
            ) : null}
            {user.frozen && may('unfreeze') ? (
              <Button onClick={() => setDialog('unfreeze')}>{t('users.unfreeze')}</Button>
            ) : null}
            {user.authenticatorBound && may('reset') ? (
              <Button onClick={() => setDialog('reset')}>{t('users.reset_authenticator')}</Button>
            ) : null}
          </Space>
          {(Object.keys(ACTIONS) as Action[]).map((action) => (
            <FormDialog<{ reason: string }>
              key={action}
              open={dialog === action}
              name={`user-${action}`}
              title={t(ACTIONS[action].title)}
              effect={() => t(ACTIONS[action].effect, { email: user.email })}
              onClose={() => setDialog(null)}
              onSubmit={({ reason }) => act(action, reason)}
            >
              <Field label="field.reason" name="reason" required>
                <Input.TextArea rows={3} maxLength={500} />
              </Field>
            </FormDialog>
          ))}

          <h2 className="console-section">{t('users.accounts')}</h2>
          <ConsoleTable<AdminUserDetail['accounts'][number]>
            label={t('users.accounts')}
            rowKey="id"
            dataSource={detail.accounts}
            columns={[
              { title: t('common.id'), dataIndex: 'id' },
              {
                title: t('field.name'),
                key: 'name',
                render: (_value, account) =>
                  `${account.name || t(`users.account_${account.kind}`)}${account.isDefault ? ` (${t('users.default')})` : ''}`,
              },
              {
                title: t('dashboard.book_cash'),
                key: 'cash',
                render: (_v, a) => formatAmount(a.balance.cash, 'USDT'),
              },
              {
                title: t('dashboard.book_held'),
                key: 'held',
                render: (_v, a) => formatAmount(a.balance.held, 'USDT'),
              },
              {
                title: t('dashboard.book_hosting'),
                key: 'hosting',
                render: (_v, a) => formatAmount(a.balance.hosting, 'USDT'),
              },
              { title: 'RAB', key: 'rab', render: (_v, a) => formatAmount(a.balance.rab, 'RAB') },
              {
                title: t('users.rab_held'),
                key: 'rabHeld',
                render: (_v, a) => formatAmount(a.balance.rabHeld, 'RAB'),
              },
            ]}
          />

          <TableSection
            title={t('nav.deposits')}
            rows={detail.deposits}
            columns={[
              { title: t('common.id'), dataIndex: 'id' },
              { title: t('field.accountId'), dataIndex: 'accountId' },
              { title: t('dashboard.chain'), dataIndex: 'chain' },
              usdtAmountColumn(t),
              {
                title: t('common.status'),
                dataIndex: 'status',
                render: (s: string) => t(`deposits.status.${s as 'held'}`),
              },
              {
                title: t('deposits.transaction'),
                dataIndex: 'txHash',
                render: (h: string) => <span className="console-break">{h}</span>,
              },
              { title: t('deposits.detected'), dataIndex: 'detectedAt', render: formatTime },
            ]}
          />

          <TableSection
            title={t('nav.withdrawals')}
            rows={detail.withdrawals}
            columns={[
              { title: t('common.id'), dataIndex: 'id' },
              { title: t('field.accountId'), dataIndex: 'accountId' },
              usdtAmountColumn(t),
              {
                title: t('field.stage'),
                dataIndex: 'stage',
                render: (s: string) => t(`withdrawals.stage.${s as 'paid'}`),
              },
              { title: t('common.created'), dataIndex: 'createdAt', render: formatTime },
            ]}
          />

          <TableSection
            title={t('users.hosting_orders')}
            rows={detail.hostingOrders}
            columns={[
              { title: t('common.id'), dataIndex: 'id' },
              { title: t('field.accountId'), dataIndex: 'accountId' },
              { title: t('field.name'), key: 'name', render: (_v, o) => nameIn(o.names, locale) },
              usdtAmountColumn(t),
              { title: t('common.status'), dataIndex: 'status' },
              { title: t('users.ends'), dataIndex: 'endAt', render: formatTime },
            ]}
          />

          <TableSection
            title={t('users.machines')}
            rows={detail.machines}
            columns={[
              { title: t('common.id'), dataIndex: 'id' },
              { title: t('field.accountId'), dataIndex: 'accountId' },
              { title: t('field.name'), key: 'name', render: (_v, m) => nameIn(m.names, locale) },
              { title: t('users.quantity'), dataIndex: 'quantity' },
              { title: t('common.status'), dataIndex: 'status' },
              { title: t('users.days_left'), dataIndex: 'daysLeft' },
            ]}
          />

          <TableSection
            title={t('users.sessions')}
            rowKey="createdAt"
            rows={detail.sessions}
            columns={[
              { title: t('common.created'), dataIndex: 'createdAt', render: formatTime },
              { title: t('users.last_seen'), dataIndex: 'lastSeenAt', render: formatTime },
              { title: t('users.expires'), dataIndex: 'expiresAt', render: formatTime },
            ]}
          />
        </>
      ) : null}
    </DetailDrawer>
  );
}

/** A part of the customer's page: its heading, and its table or a line saying there is none. */
function TableSection<T extends object>({
  title,
  rows,
  rowKey = 'id',
  columns,
}: {
  title: string;
  rows: T[];
  rowKey?: TableProps<T>['rowKey'];
  columns: NonNullable<TableProps<T>['columns']>;
}) {
  const { t } = useI18n();
  return (
    <>
      <h2 className="console-section">{title}</h2>
      {rows.length === 0 ? (
        <Typography.Paragraph type="secondary">{t('common.none')}</Typography.Paragraph>
      ) : (
        <ConsoleTable<T> label={title} rowKey={rowKey} dataSource={rows} columns={columns} />
      )}
    </>
  );
}
