/**
 * pages/chatroom/room, the conversation with support (docs/protocol.md §35). It reads the
 * synced `chat_messages` from IndexedDB, so it opens offline; the worker's socket writes new
 * messages there live. The newest page shows first; "Show earlier messages" pages back through the
 * whole history (from the device, else from the server). A message is text (1 to 2,000
 * characters; Enter sends, Shift+Enter makes a new line) or an image (camera or gallery), queued
 * in the outbox with its clientMsgId, so one written offline is sent once the link is back. Each
 * shows its time and state: waiting to be sent, sent, read by support; a refused one can be sent
 * again or removed. Text shows as text, never as HTML (React escapes it).
 */
import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import { send } from '../../app/worker-client.js';
import { DateTime } from '../../ui/DateTime.js';
import { ImagePickers } from '../../ui/ImagePickers.js';
import { useLink } from '../../ui/OfflineBanner.js';
import { useRefusalMessage } from '../outbox/messages.js';
import {
  HISTORY_PAGE,
  MESSAGE_MAX_LENGTH,
  shownMessages,
  type MessageState,
  type ShownMessage,
} from './chat-view.js';
import { useChat } from './use-chat.js';
import './chat.css';

const PAGE = HISTORY_PAGE;

export default function RoomPage() {
  const { t } = useTranslation();
  const [limit, setLimit] = useState(PAGE);
  const chat = useChat(limit);
  const online = useLink() === 'online';
  const [paging, setPaging] = useState(false);
  const [startReached, setStartReached] = useState(false);
  const asked = useRef(new Set<number>());
  const bottom = useRef<HTMLDivElement>(null);

  const shown =
    chat === undefined ? undefined : shownMessages(chat.messages ?? [], chat.commands, chat.reads);
  const atStart = startReached || chat?.lowestSeq === 1;
  const moreHere = chat !== undefined && chat.held > (chat.messages?.length ?? 0);

  // Fewer messages held than the page shows and the first not among them: ask the server for
  // the page before the oldest held (once per page size; the pull brings the rest in time).
  useEffect(() => {
    if (chat === undefined || !online || atStart || chat.held >= limit || asked.current.has(limit)) return;
    asked.current.add(limit);
    setPaging(true);
    void send('chat-history-before')
      .then((page) => {
        if (page.kind === 'ok' && page.reachedStart) setStartReached(true);
      })
      .finally(() => setPaging(false));
  }, [chat, online, atStart, limit]);

  // The conversation is read up to its newest message while the room is in front.
  const newestSeq = chat?.messages?.at(-1)?.seq ?? 0;
  const readSeq = chat?.readSeq ?? 0;
  useEffect(() => {
    const mark = () => {
      if (newestSeq > readSeq && document.visibilityState === 'visible')
        void send('chat-read', { seq: newestSeq });
    };
    mark();
    document.addEventListener('visibilitychange', mark);
    return () => document.removeEventListener('visibilitychange', mark);
  }, [newestSeq, readSeq]);

  // Opened at the newest message, and kept there as messages arrive.
  const lastKey = shown?.at(-1)?.key ?? '';
  useLayoutEffect(() => {
    if (lastKey !== '') bottom.current?.scrollIntoView({ block: 'end' });
  }, [lastKey]);

  const earlier = () => setLimit((current) => current + PAGE);

  return (
    <div className="chat-room">
      <div className="chat-history">
        {shown !== undefined && shown.length > 0 && (
          <p className="chat-history__top">
            {moreHere || !atStart ? (
              <button type="button" className="chat-earlier" onClick={earlier} disabled={paging}>
                {paging ? t('chat.loading_earlier') : t('chat.earlier')}
              </button>
            ) : (
              <span className="muted">{t('chat.start_reached')}</span>
            )}
          </p>
        )}
        <div role="log" aria-label={t('chat.log_label')} className="chat-log">
          {shown !== undefined && shown.length === 0 && <p className="muted chat-empty">{t('chat.empty')}</p>}
          <ol className="chat-list">
            {shown?.map((message) => (
              <MessageItem key={message.key} message={message} />
            ))}
          </ol>
        </div>
        <div ref={bottom} />
      </div>
      <Composer online={online} />
    </div>
  );
}

function MessageItem({ message }: { message: ShownMessage }) {
  const { t } = useTranslation();
  const mine = message.from === 'customer';
  const sender = mine ? t('chat.you') : (message.agentName ?? t('chat.support'));
  return (
    <li className={`chat-msg ${mine ? 'chat-msg--mine' : 'chat-msg--theirs'}`} data-testid="chat-message">
      <p className="chat-msg__sender">{sender}</p>
      {message.text !== null && <p className="chat-msg__text">{message.text}</p>}
      {message.text === null && (
        <ChatImage
          url={message.imageUrl}
          local={message.localImage}
          alt={mine ? t('chat.image_alt_mine') : t('chat.image_alt_theirs', { name: sender })}
        />
      )}
      <p className="chat-msg__meta">
        <DateTime at={message.at} style="short" />
        {message.state !== null && <StateMark state={message.state} />}
      </p>
      {message.failure !== null && <Failure failure={message.failure} />}
    </li>
  );
}

const TICK = 'M2 8.5 5.5 12 14 3.5';

/** The state as ticks (one: sent; two: read by support; a clock: waiting), named for screen readers. */
function StateMark({ state }: { state: MessageState }) {
  const { t } = useTranslation();
  const label = t(`chat.state_${state}`);
  return (
    <span className={`chat-state chat-state--${state}`} data-testid="chat-state" data-state={state}>
      <svg viewBox="0 0 22 16" width="18" height="13" aria-hidden="true">
        {state === 'pending' && (
          <path
            d="M8 2a6 6 0 1 0 0 12A6 6 0 0 0 8 2zm0 3v3.5l2.5 1.5"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.6"
          />
        )}
        {(state === 'sent' || state === 'read') && (
          <path d={TICK} fill="none" stroke="currentColor" strokeWidth="1.8" />
        )}
        {state === 'read' && (
          <path d="M8 8.5 11.5 12 20 3.5" fill="none" stroke="currentColor" strokeWidth="1.8" />
        )}
        {state === 'failed' && <path d="M8 2v7M8 12v1.5" stroke="currentColor" strokeWidth="2" />}
      </svg>
      <span className="chat-state__text">{label}</span>
    </span>
  );
}

function Failure({ failure }: { failure: NonNullable<ShownMessage['failure']> }) {
  const { t } = useTranslation();
  const refusal = useRefusalMessage();
  const [notice, setNotice] = useState<string | null>(null);
  const act = async (name: 'outbox-retry' | 'outbox-dismiss') => {
    const result = await send(name, { id: failure.commandId });
    setNotice(result.kind === 'refused' ? refusal(result) : null);
  };
  return (
    <div className="chat-msg__failure">
      <p role="alert">
        {failure.expired
          ? t('chat.failed_expired')
          : t('chat.failed_reason', { message: failure.message ?? t('chat.state_failed') })}
      </p>
      <button type="button" onClick={() => void act('outbox-retry')}>
        {t('chat.retry')}
      </button>
      <button type="button" onClick={() => void act('outbox-dismiss')}>
        {t('chat.remove')}
      </button>
      {notice !== null && <p className="field__error">{notice}</p>}
    </div>
  );
}

function dataUrlOfBytes(bytes: Uint8Array, type: string): Promise<string> {
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => resolve('');
    reader.readAsDataURL(new Blob([new Uint8Array(bytes)], { type }));
  });
}

/** An image of the conversation: a local one being sent, or one read by the worker with the token. */
function ChatImage({
  url,
  local,
  alt,
}: {
  url: string | null;
  local: ShownMessage['localImage'];
  alt: string;
}) {
  const { t } = useTranslation();
  const [source, setSource] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    const load =
      local !== null
        ? dataUrlOfBytes(local.bytes, local.type)
        : url !== null
          ? send('chat-image', { url })
          : null;
    if (load === null) {
      setSource(null);
      return;
    }
    setSource(undefined);
    void load.then((loaded) => {
      if (live) setSource(loaded === '' ? null : loaded);
    });
    return () => {
      live = false;
    };
  }, [url, local]);
  if (source === undefined) return <p className="chat-msg__image muted">{t('chat.image_loading')}</p>;
  if (source === null) return <p className="chat-msg__image muted">{t('chat.image_unavailable')}</p>;
  return <img className="chat-msg__image" src={source} alt={alt} />;
}

/** Text or an image, queued in the outbox (sent at once when online, else when the link is back). */
function Composer({ online }: { online: boolean }) {
  const { t } = useTranslation();
  const refusal = useRefusalMessage();
  const id = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const enqueue = useCallback(
    async (params: { text: string } | { image: File }): Promise<boolean> => {
      setBusy(true);
      try {
        const result = await send('outbox-enqueue', { kind: 'chat-send', params });
        if (result.kind === 'refused') {
          setError(refusal(result));
          return false;
        }
        setError(null);
        return true;
      } finally {
        setBusy(false);
      }
    },
    [refusal],
  );

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const trimmed = text.trim();
    if (trimmed === '') {
      setError(t('server.field_required', { field: t('chat.message_label') }));
      return;
    }
    if (trimmed.length > MESSAGE_MAX_LENGTH) {
      setError(t('server.field_too_long', { field: t('chat.message_label'), max: MESSAGE_MAX_LENGTH }));
      return;
    }
    if (await enqueue({ text: trimmed })) setText('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };

  const choose = (file: File | undefined, input: HTMLInputElement) => {
    input.value = '';
    if (file !== undefined) void enqueue({ image: file });
  };

  const errorId = `${id}-error`;
  return (
    <form
      className="chat-composer"
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-label={t('chat.composer_label')}
    >
      <label className="chat-composer__label" htmlFor={id}>
        {t('chat.message_label')}
      </label>
      <textarea
        id={id}
        className="chat-composer__text"
        rows={2}
        value={text}
        maxLength={MESSAGE_MAX_LENGTH}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        aria-invalid={error !== null}
        aria-describedby={errorId}
        enterKeyHint="send"
      />
      <p id={errorId} className="field__error" role={error !== null ? 'alert' : undefined}>
        {error ?? (online ? '' : t('chat.offline_note'))}
      </p>
      <div className="chat-composer__actions">
        <ImagePickers
          className="chat-pick"
          takeLabel={t('chat.take_photo')}
          chooseLabel={t('chat.choose_image')}
          onChoose={choose}
        />
        <button type="submit" className="solid-button chat-send" disabled={busy}>
          {t('chat.send')}
        </button>
      </div>
    </form>
  );
}
