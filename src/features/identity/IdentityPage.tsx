/**
 * Real-name verification (pages/setting/setting2, docs/protocol.md §30): the status from the
 * synced `identity` record (it reads offline; none is "not verified"), and while not verified or
 * rejected (with the reason) the form: the document's type, number, the real name and its images,
 * each taken with the camera or chosen from the gallery and previewed. The submission is an
 * outbox command sent only while online (its images uploaded by the worker first); offline the
 * form says it needs a connection and keeps what was entered.
 */
import '../../ui/antd-render.js';
import './identity.css';
import { useCallback, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { DocumentType, IdentityRecord, IdentityStatus } from '../../../contract/api/identity.js';
import { useOutcome } from '../../app/outcome.js';
import { usePullOnOpen } from '../../app/use-pull-on-open.js';
import { send } from '../../app/worker-client.js';
import { AsOf } from '../../ui/AsOf.js';
import { CardForm, CardSection } from '../../ui/Card.js';
import { Choice } from '../../ui/Choice.js';
import { Figure, TimeFigure } from '../../ui/Figure.js';
import { Field } from '../../ui/Field.js';
import { ImagePickers } from '../../ui/ImagePickers.js';
import { SubmitButton } from '../../ui/form-fields.js';
import { useLink } from '../../ui/OfflineBanner.js';
import { toast } from '../../ui/toast.js';
import { commandOutcome, useSettled, type CommandOutcome } from '../outbox/command-outcome.js';
import { CommandLines } from '../outbox/CommandLines.js';
import { useRefusalMessage } from '../outbox/messages.js';
import {
  DOCUMENT_NUMBER_MAX_LENGTH,
  DOCUMENT_TYPE_CHOICES,
  formProblems,
  imagesInOrder,
  maySubmit,
  REAL_NAME_MAX_LENGTH,
  reasonKey,
  slotsFor,
  statusKey,
  statusOf,
  type IdentityFormProblem,
  type ImageSlot,
} from './identity-view.js';
import { useIdentity, useIdentityCommand, type IdentityCommand } from './use-identity.js';

export default function IdentityPage() {
  const { t } = useTranslation();
  const { record, syncedAt } = useIdentity();
  usePullOnOpen();
  const [commandId, setCommandId] = useState<string | null>(null);
  const command = useIdentityCommand(commandId);
  /** The submission was confirmed; the record saying so is on its way. */
  const [submitted, setSubmitted] = useState(false);
  if (record === undefined) return null;
  const status = statusOf(record);
  const waitingForRecord = submitted && maySubmit(status);
  return (
    <div className="page-padding stack">
      <StatusCard record={record} status={status} syncedAt={syncedAt} />
      {waitingForRecord && (
        <p className="card identity-notice" role="status">
          {t('identity.waiting_sync')}
        </p>
      )}
      {maySubmit(status) && !waitingForRecord && (
        <IdentityForm command={command ?? null} onQueued={setCommandId} onDone={() => setSubmitted(true)} />
      )}
    </div>
  );
}

const STATUS_BADGES: Record<IdentityStatus, string> = {
  not_verified: 'badge badge--muted',
  pending_review: 'badge badge--warning',
  approved: 'badge identity-badge--approved',
  rejected: 'badge',
};

function StatusCard({
  record,
  status,
  syncedAt,
}: {
  record: IdentityRecord | null;
  status: IdentityStatus;
  syncedAt: string | null | undefined;
}) {
  const { t } = useTranslation();
  return (
    <CardSection id="identity-status" title={t('identity.status_title')}>
      <p className="identity-status">
        <span className={STATUS_BADGES[status]} data-testid="identity-status">
          {t(statusKey(status))}
        </span>
      </p>
      <p>{t(`identity.explain_${status}`)}</p>
      {record !== null && status === 'rejected' && record.reason !== null && (
        <dl className="figure-list identity-figures">
          <Figure label={t('identity.reason')} value={t(reasonKey(record.reason))} />
          {record.reason === 'other' && record.reasonText !== null && (
            <div>
              <dt>{t('identity.reviewer_note')}</dt>
              <dd className="identity-note">{record.reasonText}</dd>
            </div>
          )}
        </dl>
      )}
      {record !== null && (status === 'pending_review' || status === 'approved') && (
        <dl className="figure-list identity-figures">
          {record.documentType !== null && (
            <Figure label={t('identity.document_type')} value={t(`identity.type_${record.documentType}`)} />
          )}
          <Figure label={t('identity.document_number')} value={record.documentNumber ?? '—'} />
          <Figure label={t('identity.real_name')} value={record.realName ?? '—'} />
          {record.submittedAt !== null && (
            <TimeFigure label={t('identity.submitted_at')} at={record.submittedAt} />
          )}
          {status === 'approved' && record.reviewedAt !== null && (
            <TimeFigure label={t('identity.approved_at')} at={record.reviewedAt} />
          )}
        </dl>
      )}
      <AsOf syncedAt={syncedAt} />
    </CardSection>
  );
}

interface ChosenImage {
  file: File;
  /** A data: URL (the page's policy allows data: images, not blob:). */
  preview: string;
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(file);
  });
}

type FieldErrors = Partial<Record<IdentityFormProblem['field'], string>>;

function IdentityForm({
  command,
  onQueued,
  onDone,
}: {
  command: IdentityCommand | null;
  onQueued: (id: string) => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const handle = useOutcome();
  const refusal = useRefusalMessage();
  const online = useLink() === 'online';
  const [documentType, setDocumentType] = useState<DocumentType>('id_card');
  const [documentNumber, setDocumentNumber] = useState('');
  const [realName, setRealName] = useState('');
  const [images, setImages] = useState<Partial<Record<ImageSlot, ChosenImage>>>({});
  const [errors, setErrors] = useState<FieldErrors>({});
  const [notice, setNotice] = useState<string | null>(null);
  const [enqueuing, setEnqueuing] = useState(false);

  const settledText = useCallback(
    (outcome: CommandOutcome): string | null => {
      switch (outcome.kind) {
        case 'done':
          return null;
        case 'refused':
          return t('identity.refused', { message: outcome.message });
        case 'expired':
          return t('identity.expired');
        case 'cancelled':
          return t('identity.cancelled');
      }
    },
    [t],
  );

  useSettled(command, commandOutcome, (settled, outcome) => {
    if (outcome.kind === 'done') {
      toast(t('identity.submitted'));
      onDone();
      return;
    }
    if (outcome.kind === 'refused')
      handle({ kind: 'refused', code: outcome.code, message: outcome.message, data: null });
    setNotice(settledText(outcome));
    if (outcome.kind !== 'cancelled') void send('outbox-dismiss', { id: settled.id });
  });

  const problemText = (problem: IdentityFormProblem): string => {
    switch (problem.field) {
      case 'documentNumber':
        return problem.problem === 'required'
          ? t('server.field_required', { field: t('identity.document_number') })
          : t('server.document_number_invalid');
      case 'realName':
        return problem.problem === 'required'
          ? t('server.field_required', { field: t('identity.real_name') })
          : t('server.field_too_long', { field: t('identity.real_name'), max: REAL_NAME_MAX_LENGTH });
      default:
        return t('identity.image_required');
    }
  };

  const choose = async (slot: ImageSlot, file: File | undefined) => {
    if (file === undefined) return;
    const preview = await readAsDataUrl(file).catch(() => '');
    setImages((chosen) => ({ ...chosen, [slot]: { file, preview } }));
    setErrors((found) => ({ ...found, [slot]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problems = formProblems({ documentType, documentNumber, realName, images });
    const found: FieldErrors = {};
    for (const problem of problems) found[problem.field] ??= problemText(problem);
    setErrors(found);
    const files = imagesInOrder(documentType, images);
    if (problems.length > 0 || files === null) return;
    setNotice(null);
    setEnqueuing(true);
    try {
      const result = await send('outbox-enqueue', {
        kind: 'identity-submit',
        params: {
          documentType,
          documentNumber: documentNumber.trim(),
          realName: realName.trim(),
          images: files.map((image) => image.file),
        },
      });
      if (result.kind === 'refused') {
        setNotice(result.reason === 'offline' ? t('identity.offline') : refusal(result));
        return;
      }
      onQueued(result.id);
    } finally {
      setEnqueuing(false);
    }
  };

  const sending = enqueuing || command?.state === 'queued' || command?.state === 'sending';
  return (
    <CardForm id="identity-form" title={t('identity.form_title')} onSubmit={(event) => void submit(event)}>
      <Choice<DocumentType>
        legend={t('identity.document_type')}
        name="documentType"
        options={DOCUMENT_TYPE_CHOICES.map((value) => ({ value, label: t(`identity.type_${value}`) }))}
        value={documentType}
        onChange={setDocumentType}
      />
      <Field
        label={t('identity.document_number')}
        value={documentNumber}
        onChange={setDocumentNumber}
        error={errors.documentNumber}
        maxLength={DOCUMENT_NUMBER_MAX_LENGTH}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        required
      />
      <Field
        label={t('identity.real_name')}
        value={realName}
        onChange={setRealName}
        error={errors.realName}
        maxLength={REAL_NAME_MAX_LENGTH}
        autoComplete="name"
        required
      />
      {slotsFor(documentType).map((slot) => (
        <ImagePicker
          key={slot}
          slot={slot}
          label={t(
            slot === 'front' && documentType === 'passport'
              ? 'identity.image_photo_page'
              : `identity.image_${slot}`,
          )}
          chosen={images[slot]}
          error={errors[slot]}
          onChoose={(file) => void choose(slot, file)}
        />
      ))}
      <p className="muted form__hint">{t('identity.online_only')}</p>
      <SubmitButton busy={sending} reason={online ? null : t('identity.offline')}>
        {t('identity.submit')}
      </SubmitButton>
      <CommandLines flow={{ sending, notice }} status={t('identity.sending')} className="identity-line" />
    </CardForm>
  );
}

/** One image: taken with the camera or chosen from the gallery, and its preview. */
function ImagePicker({
  slot,
  label,
  chosen,
  error,
  onChoose,
}: {
  slot: ImageSlot;
  label: string;
  chosen: ChosenImage | undefined;
  error: string | undefined;
  onChoose: (file: File | undefined) => void;
}) {
  const { t } = useTranslation();
  const errorId = `identity-${slot}-error`;
  const described = error ? errorId : undefined;
  return (
    <fieldset className={`identity-image${error ? ' field--error' : ''}`} aria-describedby={described}>
      <legend className="field__label">{label}</legend>
      <div className="identity-image__row">
        <div className="identity-image__preview">
          {chosen !== undefined && chosen.preview !== '' ? (
            <img src={chosen.preview} alt={t('identity.preview_alt', { image: label })} />
          ) : (
            <span className="muted">{t('identity.no_image')}</span>
          )}
        </div>
        <div className="identity-image__actions">
          <ImagePickers
            className="identity-pick"
            takeLabel={t('identity.take_photo')}
            chooseLabel={t('identity.choose_image')}
            describedBy={described}
            onChoose={onChoose}
          />
        </div>
      </div>
      <p id={errorId} className="field__error" role={error ? 'alert' : undefined}>
        {error ?? ''}
      </p>
    </fieldset>
  );
}
