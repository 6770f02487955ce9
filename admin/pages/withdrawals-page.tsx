/**
 * Withdrawals: the review queue first (stage filter), a withdrawal's detail with its approvals
 * (who approved first when two are needed: the operator who did cannot approve again, the button
 * says why, and a refusal from the server stays shown in the detail), the transaction and its
 * confirmations once the send job sent it ("n / required", read again every 15 s while the open
 * withdrawal is sending), and approve, reject with a reason, mark paid with a reference, each
 * behind a dialog that states its effect.
 */
import { Alert, Button, Descriptions, Input, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import {
  adminWithdrawalSchema,
  adminWithdrawListDataSchema,
  WITHDRAWAL_STAGES,
  type AdminWithdrawal,
  type WithdrawalStage,
} from '../../contract/api/withdraw.js';
import { ConsoleApiError, type ConsoleApi } from '../api.js';
import { useConsole } from '../app/context.js';
import { useI18n } from '../i18n/i18n.js';
import { useConfirm } from '../ui/confirm.js';
import { FormDialog } from '../ui/form-dialog.js';
import { useAction } from '../ui/use-action.js';
import { usePagedList } from '../ui/use-paged-list.js';
import { formatTime } from '../ui/format.js';
import { StatusTag, type Tone } from '../ui/status-tag.js';
import { Field, InputField } from '../ui/field.js';
import { DetailDrawer, Facts } from '../ui/detail-drawer.js';
import { DetailsLink, FilterBar, ListPage } from '../ui/list-page.js';
import { FilterSelect } from '../ui/filter-select.js';

const destinationOf = (item: AdminWithdrawal) =>
  item.kind === 'bank'
    ? [item.bankName, item.cardNumber, item.holderName].filter(Boolean).join(' ')
    : `${item.network ?? ''} ${item.address ?? ''}`.trim();

const approverOf = (approval: AdminWithdrawal['approvals'][number]) =>
  approval.email ? `${approval.email} (${approval.by})` : approval.by;

/** How often an open withdrawal that is sending is read again, for its confirmation count. */
const SENDING_POLL_MS = 15_000;

/**
 * The fresher of two readings of one withdrawal: the later `updatedAt`, or on a tie the higher
 * confirmation count (the send job records the count without touching `updatedAt`).
 */
const fresher = (a: AdminWithdrawal, b: AdminWithdrawal) => {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt > b.updatedAt ? a : b;
  return (a.confirmations?.seen ?? -1) > (b.confirmations?.seen ?? -1) ? a : b;
};

const STAGE_TONES: Record<WithdrawalStage, Tone> = {
  awaiting_review: 'warn',
  approved: 'info',
  sending: 'info',
  paid: 'ok',
  rejected: 'plain',
  failed: 'bad',
};

/** One withdrawal as operators see it (the list's first row below id + 1); undefined if gone. */
async function readOne(api: ConsoleApi, id: string) {
  const page = await api.read(
    '/api/admin/withdraw/list',
    { cursor: String(BigInt(id) + 1n), limit: 1 },
    adminWithdrawListDataSchema,
  );
  return page.items.find((item) => item.id === id);
}

export function WithdrawalsPage() {
  const { t } = useI18n();
  const { api, me } = useConsole();
  const run = useAction();
  const confirm = useConfirm();
  const [stage, setStage] = useState<WithdrawalStage | 'all'>('awaiting_review');
  const list = usePagedList(
    '/api/admin/withdraw/list',
    stage === 'all' ? {} : { stage },
    adminWithdrawListDataSchema,
  );
  const [opened, setOpen] = useState<AdminWithdrawal | null>(null);
  const [dialog, setDialog] = useState<'reject' | 'paid' | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  // The detail shows the newest of what was read: the list's row or the detail's own reading.
  const listed = opened ? list.items.find((item) => item.id === opened.id) : undefined;
  const open = listed && opened ? fresher(opened, listed) : opened;
  const show = (item: AdminWithdrawal | null) => {
    setRefusal(null);
    setOpen(item);
  };

  /** Reads the open withdrawal again (sent since? its hash, its confirmations): the list's first row below id + 1. */
  const reread = async (id: string) => {
    const found = await run(() => readOne(api, id));
    if (found) setOpen(found);
    await list.reload();
  };
  // While the open withdrawal is sending, its count is read again now and then (quietly: a
  // failed reading waits for the next one; the Refresh buttons say what went wrong).
  const sendingId = open?.stage === 'sending' ? open.id : null;
  useEffect(() => {
    if (sendingId === null) return;
    let current = true;
    const timer = window.setInterval(() => {
      readOne(api, sendingId).then(
        (found) => {
          if (current && found) setOpen(found);
        },
        () => undefined,
      );
    }, SENDING_POLL_MS);
    return () => {
      current = false;
      window.clearInterval(timer);
    };
  }, [api, sendingId]);
  /** Runs an action on a withdrawal; a refusal stays shown in the detail, which is read again. */
  const act = async (path: string, params: { id: string } & Record<string, unknown>) => {
    setRefusal(null);
    const updated = await run(async () => {
      try {
        return await api.command(path, params, adminWithdrawalSchema);
      } catch (error) {
        if (error instanceof ConsoleApiError) setRefusal(error.message);
        throw error;
      }
    });
    if (!updated) {
      await reread(params.id);
      return false;
    }
    setOpen(updated);
    await list.reload();
    return true;
  };
  const mine = `operator:${me.operatorId}`;
  const approve = (item: AdminWithdrawal) => {
    const vars = {
      id: item.id,
      amount: item.amount,
      destination: destinationOf(item),
      count: item.approvedBy.length + 1,
      needed: item.approvalsNeeded,
    };
    const effect =
      item.approvedBy.length + 1 < item.approvalsNeeded
        ? t('withdrawals.confirm_approve_first', vars)
        : item.kind === 'bank'
          ? t('withdrawals.confirm_approve_bank', vars)
          : t('withdrawals.confirm_approve_send', vars);
    confirm(effect, () => act('/api/admin/withdraw/approve', { id: item.id }));
  };

  const confirmationsText = ({ required, reached, seen }: NonNullable<AdminWithdrawal['confirmations']>) =>
    reached
      ? t('withdrawals.confirmations_reached', { required })
      : seen === null
        ? t('withdrawals.confirmations_waiting', { required })
        : t('withdrawals.confirmations_count', { seen, required });

  const stageTag = (value: WithdrawalStage) => (
    <StatusTag tone={STAGE_TONES[value]}>{t(`withdrawals.stage.${value}`)}</StatusTag>
  );

  return (
    <ListPage<AdminWithdrawal>
      title={t('withdrawals.title')}
      list={list}
      filters={
        <FilterBar name="withdrawals-filter">
          <FilterSelect<WithdrawalStage | 'all'>
            label={t('field.stage')}
            name="stage"
            value={stage}
            onChange={setStage}
            withAll
            options={WITHDRAWAL_STAGES.map((value) => ({ value, label: t(`withdrawals.stage.${value}`) }))}
          />
        </FilterBar>
      }
      columns={[
        {
          title: t('common.id'),
          dataIndex: 'id',
          render: (id: string, item) => <DetailsLink text={id} onOpen={() => show(item)} />,
        },
        { title: t('withdrawals.user'), dataIndex: 'userId' },
        {
          title: t('withdrawals.amount'),
          dataIndex: 'amount',
          render: (amount: string) => `${amount} USDT`,
        },
        {
          title: t('withdrawals.destination'),
          key: 'destination',
          render: (_value, item) => <span className="console-break">{destinationOf(item)}</span>,
        },
        { title: t('field.stage'), dataIndex: 'stage', render: stageTag },
        {
          title: t('withdrawals.approvals'),
          key: 'approvals',
          render: (_value, item) =>
            t('withdrawals.approvals_count', {
              count: item.approvedBy.length,
              needed: item.approvalsNeeded,
            }),
        },
        { title: t('common.created'), dataIndex: 'createdAt', render: formatTime },
      ]}
    >
      <DetailDrawer
        open={open !== null}
        onClose={() => show(null)}
        title={open ? t('withdrawals.detail_title', { id: open.id }) : ''}
      >
        {open ? (
          <>
            <Facts>
              <Descriptions.Item label={t('withdrawals.user')}>{open.userId}</Descriptions.Item>
              <Descriptions.Item label={t('withdrawals.amount')}>{open.amount} USDT</Descriptions.Item>
              <Descriptions.Item label={t('withdrawals.fee')}>{open.fee} USDT</Descriptions.Item>
              <Descriptions.Item label={t('withdrawals.destination')}>
                <span className="console-break">{destinationOf(open)}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('field.stage')}>{stageTag(open.stage)}</Descriptions.Item>
              <Descriptions.Item label={t('withdrawals.approvals')}>
                {t('withdrawals.approvals_count', {
                  count: open.approvedBy.length,
                  needed: open.approvalsNeeded,
                })}
              </Descriptions.Item>
              {open.approvalsNeeded > 1 ? (
                <Descriptions.Item label={t('withdrawals.first_approval')}>
                  {open.approvals[0] ? approverOf(open.approvals[0]) : t('common.none')}
                </Descriptions.Item>
              ) : null}
              <Descriptions.Item label={t('withdrawals.approved_by')}>
                {open.approvals.length > 0 ? open.approvals.map(approverOf).join(', ') : t('common.none')}
              </Descriptions.Item>
              {open.reason ? (
                <Descriptions.Item label={t('field.reason')}>{open.reason}</Descriptions.Item>
              ) : null}
              {open.txHash ? (
                <Descriptions.Item label={t('withdrawals.transaction')}>
                  <span className="console-break">{open.txHash}</span>
                </Descriptions.Item>
              ) : null}
              {open.confirmations ? (
                <Descriptions.Item label={t('withdrawals.confirmations')}>
                  {confirmationsText(open.confirmations)}
                </Descriptions.Item>
              ) : null}
              {open.reference ? (
                <Descriptions.Item label={t('field.reference')}>{open.reference}</Descriptions.Item>
              ) : null}
              <Descriptions.Item label={t('common.created')}>{formatTime(open.createdAt)}</Descriptions.Item>
            </Facts>
            {refusal ? (
              <Alert
                className="console-more"
                type="error"
                role="alert"
                showIcon
                title={t('withdrawals.refused', { message: refusal })}
              />
            ) : null}
            <Space wrap className="console-more">
              {open.stage === 'awaiting_review' ? (
                <Button
                  type="primary"
                  disabled={open.approvedBy.includes(mine)}
                  aria-describedby={open.approvedBy.includes(mine) ? 'withdrawal-approved-by-me' : undefined}
                  onClick={() => approve(open)}
                >
                  {t('withdrawals.approve')}
                </Button>
              ) : null}
              {open.stage === 'awaiting_review' || open.stage === 'approved' ? (
                <Button danger onClick={() => setDialog('reject')}>
                  {t('withdrawals.reject')}
                </Button>
              ) : null}
              {open.stage === 'approved' ? (
                <Button onClick={() => setDialog('paid')}>{t('withdrawals.paid')}</Button>
              ) : null}
              <Button onClick={() => void reread(open.id)}>{t('common.refresh')}</Button>
            </Space>
            {open.stage === 'awaiting_review' && open.approvedBy.includes(mine) ? (
              <Typography.Paragraph id="withdrawal-approved-by-me" className="console-more">
                {t('withdrawals.you_approved')}
              </Typography.Paragraph>
            ) : null}
            <FormDialog<{ reason: string }>
              open={dialog === 'reject'}
              name="withdrawal-reject"
              title={t('withdrawals.reject')}
              effect={() => t('withdrawals.confirm_reject', { id: open.id, total: open.total })}
              onClose={() => setDialog(null)}
              onSubmit={({ reason }) => act('/api/admin/withdraw/reject', { id: open.id, reason })}
            >
              <Field label="field.reason" name="reason" required>
                <Input.TextArea rows={3} maxLength={500} />
              </Field>
            </FormDialog>
            <FormDialog<{ reference: string }>
              open={dialog === 'paid'}
              name="withdrawal-paid"
              title={t('withdrawals.paid')}
              effect={(values) =>
                t('withdrawals.confirm_paid', {
                  id: open.id,
                  amount: open.amount,
                  destination: destinationOf(open),
                  reference: values.reference ?? '…',
                })
              }
              onClose={() => setDialog(null)}
              onSubmit={({ reference }) => act('/api/admin/withdraw/paid', { id: open.id, reference })}
            >
              <InputField label="field.reference" name="reference" required maxLength={200} />
            </FormDialog>
          </>
        ) : null}
      </DetailDrawer>
    </ListPage>
  );
}
