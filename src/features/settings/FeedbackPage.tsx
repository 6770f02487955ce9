/**
 * Feedback (pages/setting/setting3): the user's tickets from `coffer-u{user}` with their status
 * and reply, tickets still in the outbox at the top, and a form that queues a new ticket (its
 * images are uploaded by the worker before the ticket is sent), so it works offline.
 */
import '../../ui/antd-render.js';
import { Button } from 'antd-mobile';
import { useLiveQuery } from 'dexie-react-hooks';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { FeedbackRecord } from '../../../contract/api/content.js';
import { TEXTAREA_MAX_LENGTH } from '../../../contract/constants.js';
import { useUserDb, useSyncedAt } from '../../../client-db/use-sync-db.js';
import { AsOf } from '../../ui/AsOf.js';
import { Field } from '../../ui/Field.js';
import { toast } from '../../ui/toast.js';
import { useEnqueue } from '../outbox/use-enqueue.js';
import { DateTime } from '../../ui/DateTime.js';
import { CardForm, CardSection } from '../../ui/Card.js';

const TITLE_MAX_LENGTH = 60;
const MAX_IMAGES = 9;
const COLLECTIONS = ['feedback'] as const;

interface WaitingTicket {
  id: string;
  title: string;
  content: string;
  createdAtMs: number;
}

export default function FeedbackPage() {
  const { t } = useTranslation();
  const db = useUserDb();
  const tickets = useLiveQuery(
    async () => (db === null ? [] : db.feedback.orderBy('createdAt').reverse().toArray()),
    [db],
  );
  const waiting = useLiveQuery(async (): Promise<WaitingTicket[]> => {
    if (db === null) return [];
    const rows = await db.outbox.where('state').anyOf('queued', 'sending').sortBy('seq');
    return rows.flatMap((row) =>
      row.kind === 'feedback-submit'
        ? [{ id: row.id, title: row.params.title, content: row.params.content, createdAtMs: row.createdAtMs }]
        : [],
    );
  }, [db]);
  const syncedAt = useSyncedAt(db, COLLECTIONS);

  return (
    <div className="page-padding stack">
      <NewTicket />
      <CardSection id="feedback-list" title={t('feedback.list_title')}>
        <AsOf syncedAt={syncedAt} />
        {tickets !== undefined && waiting !== undefined && tickets.length === 0 && waiting.length === 0 && (
          <p className="muted">{t('feedback.empty')}</p>
        )}
        <ul className="row-list">
          {waiting?.map((ticket) => (
            <li key={ticket.id} className="row">
              <div className="row__head">
                <h3 className="row__title">{ticket.title}</h3>
                <span className="badge badge--muted">{t('feedback.waiting')}</span>
              </div>
              <p>{ticket.content}</p>
            </li>
          ))}
          {tickets?.map((ticket) => (
            <Ticket key={ticket.id} ticket={ticket} />
          ))}
        </ul>
      </CardSection>
    </div>
  );
}

function Ticket({ ticket }: { ticket: FeedbackRecord }) {
  const { t } = useTranslation();
  return (
    <li className="row">
      <div className="row__head">
        <h3 className="row__title">{ticket.title}</h3>
        <span className={`badge ${ticket.status === 'replied' ? '' : 'badge--muted'}`}>
          {t(`feedback.status_${ticket.status}`)}
        </span>
      </div>
      <p className="muted">
        <DateTime at={ticket.createdAt} style="short" />
      </p>
      <p>{ticket.content}</p>
      {ticket.images.length > 0 && (
        <p className="muted">{t('feedback.image_count', { count: ticket.images.length })}</p>
      )}
      {ticket.reply !== null && (
        <div className="reply">
          <p className="muted">{t('feedback.reply')}</p>
          <p>{ticket.reply}</p>
        </div>
      )}
    </li>
  );
}

function NewTicket() {
  const { t } = useTranslation();
  const { busy, enqueue } = useEnqueue();
  const contentId = useId();
  const imagesId = useId();
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [images, setImages] = useState<File[]>([]);
  const [errors, setErrors] = useState<{ title?: string; content?: string; images?: string }>({});
  const [formKey, setFormKey] = useState(0);

  const validate = () => {
    const found: typeof errors = {};
    const titleText = title.trim();
    const contentText = content.trim();
    if (titleText === '') found.title = t('server.field_required', { field: t('field.title') });
    else if (titleText.length > TITLE_MAX_LENGTH)
      found.title = t('server.field_too_long', { field: t('field.title'), max: TITLE_MAX_LENGTH });
    if (contentText === '') found.content = t('server.field_required', { field: t('field.content') });
    else if (contentText.length > TEXTAREA_MAX_LENGTH)
      found.content = t('server.field_too_long', { field: t('field.content'), max: TEXTAREA_MAX_LENGTH });
    if (images.length > MAX_IMAGES) found.images = t('feedback.too_many_images', { max: MAX_IMAGES });
    return found;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const refused = await enqueue({
      kind: 'feedback-submit',
      params: { title: title.trim(), content: content.trim(), images },
    });
    if (refused) return;
    setTitle('');
    setContent('');
    setImages([]);
    setFormKey((key) => key + 1); // clears the file input
    toast(t('feedback.queued'));
  };

  return (
    <CardForm id="feedback-new" title={t('feedback.new_ticket')} onSubmit={(event) => void submit(event)}>
      <Field
        label={t('field.title')}
        value={title}
        onChange={setTitle}
        error={errors.title}
        maxLength={TITLE_MAX_LENGTH}
        required
      />
      <div className={`field${errors.content ? ' field--error' : ''}`}>
        <label className="field__label" htmlFor={contentId}>
          {t('field.content')}
        </label>
        <textarea
          id={contentId}
          className="textarea"
          value={content}
          maxLength={TEXTAREA_MAX_LENGTH}
          required
          aria-invalid={errors.content ? true : undefined}
          aria-describedby={errors.content ? `${contentId}-error` : undefined}
          onChange={(event) => setContent(event.target.value)}
        />
        <p id={`${contentId}-error`} className="field__error" role={errors.content ? 'alert' : undefined}>
          {errors.content ?? ''}
        </p>
      </div>
      <div className={`field${errors.images ? ' field--error' : ''}`}>
        <label className="field__label" htmlFor={imagesId}>
          {t('feedback.images_label', { max: MAX_IMAGES })}
        </label>
        <input
          key={formKey}
          id={imagesId}
          type="file"
          accept="image/*"
          multiple
          aria-describedby={`${imagesId}-error`}
          onChange={(event) => setImages(Array.from(event.target.files ?? []))}
        />
        <p id={`${imagesId}-error`} className="field__error" role={errors.images ? 'alert' : undefined}>
          {errors.images ?? (images.length > 0 ? t('feedback.image_count', { count: images.length }) : '')}
        </p>
      </div>
      <Button type="submit" color="primary" block size="large" loading={busy}>
        {t('feedback.submit')}
      </Button>
    </CardForm>
  );
}
