/**
 * Feedback: what customers wrote, awaiting reply first (the status filter opens on it; with "All",
 * those awaiting come first within what is loaded), a message's detail with its images
 * (thumbnails, each opening larger) and the reply, behind a dialog that states its effect.
 * Customers' text is shown as text (React escapes it), never as HTML.
 */
import { Button, Descriptions, Input, Modal, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import type { z } from 'zod';
import { adminFeedbackListDataSchema, feedbackRecordSchema } from '../../contract/api/content.js';
import { ConsoleApiError } from '../api.js';
import { useConsole } from '../app/context.js';
import { useI18n } from '../i18n/i18n.js';
import { FormDialog } from '../ui/form-dialog.js';
import { formatTime } from '../ui/format.js';
import { useAction } from '../ui/use-action.js';
import { usePagedList } from '../ui/use-paged-list.js';
import { StatusTag } from '../ui/status-tag.js';
import { Field } from '../ui/field.js';
import { DetailDrawer, Facts } from '../ui/detail-drawer.js';
import { DetailsLink, FilterBar, ListPage } from '../ui/list-page.js';
import { StatusFilter } from '../ui/filter-select.js';

type Feedback = z.infer<typeof adminFeedbackListDataSchema>['items'][number];
type StatusFilter = Feedback['status'] | 'all';

type Loaded = { url: string; source: string | null; error: string | null };

/**
 * A feedback's images: each read with the session's token (the image route wants it) and shown
 * as a thumbnail button that opens it larger in a dialog.
 */
function FeedbackImages({ urls }: { urls: string[] }) {
  const { t } = useI18n();
  const { api } = useConsole();
  const [loaded, setLoaded] = useState<Loaded[]>([]);
  const [large, setLarge] = useState<number | null>(null);
  const key = urls.join('|');

  useEffect(() => {
    let live = true;
    const paths = key === '' ? [] : key.split('|');
    setLoaded(paths.map((url) => ({ url, source: null, error: null })));
    void Promise.all(
      paths.map(async (url) => {
        try {
          return { url, source: await api.image(url), error: null };
        } catch (error) {
          const message = error instanceof ConsoleApiError ? error.message : t('common.network_error');
          return { url, source: null, error: message };
        }
      }),
    ).then((done) => {
      if (live) setLoaded(done);
    });
    return () => {
      live = false;
    };
  }, [api, key, t]);

  if (urls.length === 0) return <>{t('common.none')}</>;
  const shown = large === null ? undefined : loaded[large];
  return (
    <>
      <Space wrap>
        {loaded.map((image, index) =>
          image.error ? (
            <Typography.Text key={image.url} type="danger">
              {t('feedback.image_failed', { index: index + 1, message: image.error })}
            </Typography.Text>
          ) : (
            <button
              key={image.url}
              type="button"
              className="console-thumb"
              aria-label={t('feedback.show_image', { index: index + 1, count: urls.length })}
              disabled={!image.source}
              onClick={() => setLarge(index)}
            >
              {image.source ? (
                <img src={image.source} alt={t('feedback.image_alt', { index: index + 1 })} />
              ) : (
                t('common.loading')
              )}
            </button>
          ),
        )}
      </Space>
      <Modal
        open={shown !== undefined}
        title={large === null ? '' : t('feedback.image_alt', { index: large + 1 })}
        footer={null}
        onCancel={() => setLarge(null)}
        width={900}
        closable={{ 'aria-label': t('common.close') }}
      >
        {shown?.source ? (
          <img
            className="console-image-large"
            src={shown.source}
            alt={t('feedback.image_alt', { index: (large ?? 0) + 1 })}
          />
        ) : null}
      </Modal>
    </>
  );
}

export function FeedbackPage() {
  const { t } = useI18n();
  const { api } = useConsole();
  const run = useAction();
  const [status, setStatus] = useState<StatusFilter>('awaiting_reply');
  const list = usePagedList(
    '/api/admin/feedback/list',
    status === 'all' ? {} : { status },
    adminFeedbackListDataSchema,
  );
  const [open, setOpen] = useState<Feedback | null>(null);
  const [replying, setReplying] = useState(false);
  const items = [...list.items].sort(
    (a, b) => Number(b.status === 'awaiting_reply') - Number(a.status === 'awaiting_reply'),
  );
  const statusTag = (status: Feedback['status']) => (
    <StatusTag tone={status === 'awaiting_reply' ? 'warn' : 'ok'}>{t(`feedback.status.${status}`)}</StatusTag>
  );

  const reply = async ({ reply: text }: { reply: string }) => {
    if (!open) return false;
    const updated = await run(() =>
      api.command('/api/admin/feedback/reply', { id: open.id, reply: text }, feedbackRecordSchema),
    );
    if (!updated) return false;
    setOpen({ ...open, ...updated });
    await list.reload();
    return true;
  };

  return (
    <ListPage<Feedback>
      title={t('feedback.title')}
      list={list}
      items={items}
      filters={
        <FilterBar name="feedback-filter">
          <StatusFilter<StatusFilter>
            value={status}
            onChange={setStatus}
            options={[
              { value: 'awaiting_reply', label: t('feedback.status.awaiting_reply') },
              { value: 'replied', label: t('feedback.status.replied') },
              { value: 'all', label: t('common.all') },
            ]}
          />
        </FilterBar>
      }
      columns={[
        {
          title: t('common.id'),
          dataIndex: 'id',
          render: (id: string, item) => <DetailsLink text={id} onOpen={() => setOpen(item)} />,
        },
        { title: t('common.status'), dataIndex: 'status', render: statusTag },
        { title: t('field.title'), dataIndex: 'title' },
        { title: t('feedback.from'), dataIndex: 'email' },
        { title: t('common.created'), dataIndex: 'createdAt', render: formatTime },
      ]}
    >
      <DetailDrawer
        open={open !== null}
        onClose={() => setOpen(null)}
        title={open ? t('feedback.detail_title', { id: open.id }) : ''}
      >
        {open ? (
          <>
            <Facts>
              <Descriptions.Item label={t('common.status')}>{statusTag(open.status)}</Descriptions.Item>
              <Descriptions.Item label={t('feedback.from')}>
                <span className="console-break">{open.email}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('field.title')}>{open.title}</Descriptions.Item>
              <Descriptions.Item label={t('feedback.message')}>
                <span className="console-pre">{open.content}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('feedback.images')}>
                <FeedbackImages urls={open.images} />
              </Descriptions.Item>
              {open.reply ? (
                <Descriptions.Item label={t('field.reply')}>
                  <span className="console-pre">{open.reply}</span>
                </Descriptions.Item>
              ) : null}
              <Descriptions.Item label={t('common.created')}>{formatTime(open.createdAt)}</Descriptions.Item>
            </Facts>
            <div className="console-more">
              <Button type="primary" onClick={() => setReplying(true)}>
                {t('feedback.reply')}
              </Button>
            </div>
            <FormDialog<{ reply: string }>
              open={replying}
              name="feedback-reply"
              title={t('feedback.reply')}
              effect={() => t('feedback.confirm_reply', { email: open.email })}
              onClose={() => setReplying(false)}
              onSubmit={reply}
            >
              <Field label="field.reply" name="reply" required>
                <Input.TextArea rows={4} maxLength={1000} />
              </Field>
            </FormDialog>
          </>
        ) : null}
      </DetailDrawer>
    </ListPage>
  );
}
