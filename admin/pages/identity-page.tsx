/**
 * Real-name verification (docs/protocol.md §30): the review queue oldest first (status filter,
 * paging), a submission's detail in a drawer (the whole number, the real name, the images behind
 * links that expire in 5 minutes, reloaded with the detail, each enlarged on click; the other
 * accounts that submitted the same document; the history), and approve, or reject with a reason
 * from the list, each behind a dialog that states its effect. Customers' text is shown as text.
 */
import { Button, Descriptions, Image, Input, List, Select, Space, Typography } from 'antd';
import { useCallback, useState, type ReactNode } from 'react';
import {
  adminIdentityDetailDataSchema,
  adminIdentityListDataSchema,
  identityRecordSchema,
  REJECT_REASONS,
  type AdminIdentityDetail,
  type IdentityStatus,
  type RejectReason,
} from '../../contract/api/identity.js';
import type { z } from 'zod';
import { useConsole } from '../app/context.js';
import { useI18n } from '../i18n/i18n.js';
import { useConfirm } from '../ui/confirm.js';
import { Field } from '../ui/field.js';
import { FormDialog } from '../ui/form-dialog.js';
import { formatTime } from '../ui/format.js';
import { DetailDrawer, Facts } from '../ui/detail-drawer.js';
import { DetailsLink, FilterBar, ListPage } from '../ui/list-page.js';
import { StatusTag, type Tone } from '../ui/status-tag.js';
import { useAction } from '../ui/use-action.js';
import { usePagedList } from '../ui/use-paged-list.js';
import { StatusFilter } from '../ui/filter-select.js';

type Item = z.infer<typeof adminIdentityListDataSchema>['items'][number];
type QueueStatus = 'pending_review' | 'approved' | 'rejected';
const QUEUE_STATUSES: readonly QueueStatus[] = ['pending_review', 'approved', 'rejected'];

const STATUS_TONES: Record<IdentityStatus, Tone> = {
  not_verified: 'plain',
  pending_review: 'warn',
  approved: 'ok',
  rejected: 'bad',
};

export function IdentityPage() {
  const { t } = useI18n();
  const { api } = useConsole();
  const run = useAction();
  const confirm = useConfirm();
  const [status, setStatus] = useState<QueueStatus>('pending_review');
  const list = usePagedList('/api/admin/identity/list', { status }, adminIdentityListDataSchema);
  const [openUser, setOpenUser] = useState<string | null>(null);
  const [detail, setDetail] = useState<AdminIdentityDetail | null>(null);
  const [loadingDetail, setLoadingDetail] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState<RejectReason | undefined>(undefined);
  const [zoom, setZoom] = useState<number | null>(null);

  const loadDetail = useCallback(
    async (userId: string) => {
      setLoadingDetail(true);
      const found = await run(() =>
        api.read('/api/admin/identity/detail', { userId }, adminIdentityDetailDataSchema),
      );
      setLoadingDetail(false);
      if (found) setDetail(found);
    },
    [api, run],
  );
  const open = (userId: string) => {
    setDetail(null);
    setZoom(null);
    setOpenUser(userId);
    void loadDetail(userId);
  };
  const close = () => {
    setOpenUser(null);
    setDetail(null);
    setZoom(null);
  };

  const act = async (path: string, params: Record<string, unknown>) => {
    const done = await run(() => api.command(path, params, identityRecordSchema));
    if (!done) return false;
    if (openUser !== null) await loadDetail(openUser);
    await list.reload();
    return true;
  };

  const typeOf = (item: Item) => t(`identity.type.${item.documentType}`);
  const statusTag = (value: IdentityStatus) => (
    <StatusTag tone={STATUS_TONES[value]}>{t(`identity.status.${value}`)}</StatusTag>
  );

  const approve = (item: AdminIdentityDetail) =>
    confirm(
      t('identity.confirm_approve', {
        email: item.email,
        name: item.realName,
        type: typeOf(item),
        number: item.documentNumber,
      }),
      () => act('/api/admin/identity/approve', { userId: item.userId }),
    );

  return (
    <ListPage<Item>
      title={t('identity.title')}
      list={list}
      rowKey="submissionId"
      filters={
        <FilterBar name="identity-filter">
          <StatusFilter<QueueStatus>
            value={status}
            onChange={setStatus}
            options={QUEUE_STATUSES.map((value) => ({ value, label: t(`identity.status.${value}`) }))}
          />
        </FilterBar>
      }
      columns={[
        {
          title: t('identity.user'),
          dataIndex: 'email',
          render: (email: string, item) => (
            <DetailsLink text={email} className="console-break" onOpen={() => open(item.userId)} />
          ),
        },
        { title: t('identity.real_name'), dataIndex: 'realName' },
        { title: t('identity.document_type'), key: 'documentType', render: (_value, item) => typeOf(item) },
        { title: t('common.status'), dataIndex: 'status', render: statusTag },
        { title: t('identity.submitted'), dataIndex: 'submittedAt', render: formatTime },
        { title: t('identity.reviewed'), dataIndex: 'reviewedAt', render: formatTime },
      ]}
    >
      <DetailDrawer
        open={openUser !== null}
        onClose={close}
        title={detail ? t('identity.detail_title', { email: detail.email }) : t('identity.title')}
        size={560}
        loading={loadingDetail && detail === null}
      >
        {detail ? (
          <>
            <Facts>
              <Descriptions.Item label={t('identity.user')}>
                <span className="console-break">
                  {detail.email} (#{detail.userId})
                </span>
              </Descriptions.Item>
              <Descriptions.Item label={t('common.status')}>{statusTag(detail.status)}</Descriptions.Item>
              <Descriptions.Item label={t('identity.document_type')}>{typeOf(detail)}</Descriptions.Item>
              <Descriptions.Item label={t('identity.document_number')}>
                <span className="console-break" data-testid="identity-number">
                  {detail.documentNumber}
                </span>
              </Descriptions.Item>
              <Descriptions.Item label={t('identity.real_name')}>
                <span className="console-pre">{detail.realName}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('identity.submitted')}>
                {formatTime(detail.submittedAt)}
              </Descriptions.Item>
              {detail.reviewedAt ? (
                <Descriptions.Item label={t('identity.reviewed')}>
                  {formatTime(detail.reviewedAt)}{' '}
                  {detail.reviewedBy ? t('identity.reviewed_by', { id: detail.reviewedBy }) : ''}
                </Descriptions.Item>
              ) : null}
              {detail.reason ? (
                <Descriptions.Item label={t('field.reason')}>
                  {t(`identity.reason.${detail.reason}`)}
                  {detail.reasonText ? <span className="console-pre">: {detail.reasonText}</span> : null}
                </Descriptions.Item>
              ) : null}
            </Facts>

            <h2 className="console-section">{t('identity.images')}</h2>
            <Typography.Paragraph type="secondary">
              {t('identity.images_expire', { time: formatTime(detail.images[0]?.expiresAt ?? null) })}{' '}
              <Button size="small" onClick={() => void loadDetail(detail.userId)} loading={loadingDetail}>
                {t('identity.reload')}
              </Button>
            </Typography.Paragraph>
            <Image.PreviewGroup
              preview={{
                open: zoom !== null,
                current: zoom ?? 0,
                onOpenChange: (value, info) => setZoom(value ? info.current : null),
                onChange: (current) => setZoom(current),
              }}
            >
              <Space wrap align="start">
                {detail.images.map((image, index) => (
                  <Space key={image.url} orientation="vertical" align="center">
                    <Image
                      src={image.url}
                      width={150}
                      alt={t('identity.image_alt', { index: String(index + 1), email: detail.email })}
                    />
                    <Button size="small" onClick={() => setZoom(index)}>
                      {t('identity.enlarge', { index: String(index + 1) })}
                    </Button>
                  </Space>
                ))}
              </Space>
            </Image.PreviewGroup>

            <h2 className="console-section">{t('identity.same_document')}</h2>
            <Rows
              items={detail.sameDocument}
              render={(other) => (
                <>
                  <span className="console-break">
                    {other.email} (#{other.userId})
                  </span>{' '}
                  {statusTag(other.status)} {formatTime(other.submittedAt)}
                </>
              )}
            />

            <h2 className="console-section">{t('identity.history')}</h2>
            <Rows
              items={detail.history}
              render={(entry) => (
                <>
                  {formatTime(entry.submittedAt)} {statusTag(entry.status)}{' '}
                  {entry.reason ? t(`identity.reason.${entry.reason}`) : ''}
                </>
              )}
            />

            {detail.status === 'pending_review' ? (
              <Space wrap className="console-more">
                <Button type="primary" onClick={() => approve(detail)}>
                  {t('identity.approve')}
                </Button>
                <Button
                  danger
                  onClick={() => {
                    setReason(undefined);
                    setRejecting(true);
                  }}
                >
                  {t('identity.reject')}
                </Button>
              </Space>
            ) : null}
            <FormDialog<{ reason: RejectReason; note?: string }>
              open={rejecting}
              name="identity-reject"
              title={t('identity.reject')}
              effect={(values) =>
                t('identity.confirm_reject', {
                  email: detail.email,
                  reason: values.reason ? t(`identity.reason.${values.reason}`) : '…',
                })
              }
              onClose={() => setRejecting(false)}
              onSubmit={({ reason: chosen, note }) =>
                act('/api/admin/identity/reject', {
                  userId: detail.userId,
                  reason: chosen,
                  ...(note?.trim() ? { note: note.trim() } : {}),
                })
              }
            >
              <Field label="field.reason" name="reason" required>
                <Select<RejectReason>
                  onChange={setReason}
                  options={REJECT_REASONS.map((value) => ({ value, label: t(`identity.reason.${value}`) }))}
                />
              </Field>
              <Field label="field.note" name="note" required={reason === 'other'}>
                <Input.TextArea rows={3} maxLength={300} />
              </Field>
            </FormDialog>
          </>
        ) : null}
      </DetailDrawer>
    </ListPage>
  );
}

/** A short list in the drawer, or "None" as plain text (antd's empty text is too light for AA). */
function Rows<T>({ items, render }: { items: readonly T[]; render: (item: T) => ReactNode }) {
  const { t } = useI18n();
  if (items.length === 0) return <Typography.Paragraph>{t('common.none')}</Typography.Paragraph>;
  return (
    <List
      size="small"
      bordered
      dataSource={[...items]}
      renderItem={(item) => <List.Item>{render(item)}</List.Item>}
    />
  );
}
