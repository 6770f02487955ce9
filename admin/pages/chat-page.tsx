/**
 * The agents' desk (docs/protocol.md §35.4; roles support and superadmin): conversations by status
 * (open, pending, resolved) as the server orders them (unassigned first, then the oldest waiting
 * first); the chosen one's history paged back, assign to me, resolve, a reply or an internal note
 * (shown apart, never sent to the customer), canned replies typed `/code` in the customer's
 * language; beside it the customer's context, each part linking to its console screen. Live over
 * the desk's own socket (auth in its first frame; after a reconnect the list and the open
 * history are read again). Customers' text is shown as text (React escapes it), never as HTML.
 */
import { Alert, Button, Checkbox, Descriptions, Form, Input, Radio, Space, Typography } from 'antd';
import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ChangeEvent,
  type KeyboardEvent,
} from 'react';
import { Link } from 'react-router-dom';
import {
  adminCannedListDataSchema,
  adminChatContextDataSchema,
  adminChatConversationDataSchema,
  adminChatHistoryDataSchema,
  adminChatListDataSchema,
  adminChatReplyDataSchema,
  adminChatServerFrameSchema,
  CHAT_TEXT_MAX,
  type AdminChatContext,
  type AdminChatConversation,
  type AdminChatMessage,
  type AdminChatServerFrame,
  type CannedReply,
  type ChatStatus,
} from '../../contract/api/chat.js';
import { ConsoleApiError } from '../api.js';
import { useConsole } from '../app/context.js';
import { useI18n } from '../i18n/i18n.js';
import { formatTime } from '../ui/format.js';
import { LoadMore } from '../ui/load-more.js';
import { Page } from '../ui/page.js';
import { StatusTag } from '../ui/status-tag.js';
import { useAction } from '../ui/use-action.js';
import { usePagedList } from '../ui/use-paged-list.js';
import { cannedFor, repliesFor } from './chat-canned.js';
import { ChatSettings } from './chat-settings.js';

const STATUS_TONES = { open: 'warn', pending: 'info', resolved: 'ok' } as const;

/** The desk's socket: every frame handed to `onFrame`; `onReady` after each (re)connect. */
function useDeskSocket(onFrame: (frame: AdminChatServerFrame) => void, onReady: () => void): boolean {
  const { api } = useConsole();
  const [live, setLive] = useState(false);
  const handlers = useRef({ onFrame, onReady });
  handlers.current = { onFrame, onReady };
  useEffect(() => {
    let stopped = false;
    let socket: WebSocket | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let failures = 0;
    const open = () => {
      const token = api.token();
      if (stopped || token === null) return;
      const url = new URL('/api/admin/chat/socket', window.location.href);
      url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
      const current = new WebSocket(url);
      socket = current;
      current.onopen = () => current.send(JSON.stringify({ type: 'auth', token }));
      current.onmessage = (event) => {
        let frame: AdminChatServerFrame;
        try {
          frame = adminChatServerFrameSchema.parse(JSON.parse(String(event.data)));
        } catch {
          return;
        }
        if (frame.type === 'ready') {
          failures = 0;
          setLive(true);
          handlers.current.onReady();
          return;
        }
        handlers.current.onFrame(frame);
      };
      current.onclose = (event) => {
        setLive(false);
        if (stopped || event.code === 4401 || event.code === 4403) return;
        failures += 1;
        const ceiling = Math.min(30_000, 1_000 * 2 ** Math.min(failures - 1, 5));
        retry = setTimeout(open, ceiling / 2 + (Math.random() * ceiling) / 2);
      };
    };
    open();
    const ping = setInterval(() => {
      if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: 'ping' }));
    }, 25_000);
    return () => {
      stopped = true;
      clearInterval(ping);
      if (retry !== null) clearTimeout(retry);
      socket?.close(1000);
    };
  }, [api]);
  return live;
}

export function ChatPage() {
  const { t } = useI18n();
  const { api } = useConsole();
  const run = useAction();
  const [status, setStatus] = useState<ChatStatus>('open');
  const list = usePagedList('/api/admin/chat/list', { status }, adminChatListDataSchema);
  const [selected, setSelected] = useState<string | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [context, setContext] = useState<AdminChatContext | null>(null);
  useEffect(() => {
    setContext(null);
    if (selected === null) return;
    let live = true;
    void run(() =>
      api.read('/api/admin/chat/context', { userId: selected }, adminChatContextDataSchema),
    ).then((loaded) => {
      if (live && loaded) setContext(loaded);
    });
    return () => {
      live = false;
    };
  }, [api, run, selected]);
  /** Bumped for every frame of the selected conversation, and after a reconnect. */
  const [incoming, setIncoming] = useState<{ message: AdminChatMessage | null; serial: number }>({
    message: null,
    serial: 0,
  });
  const reloadSoon = useRef<ReturnType<typeof setTimeout> | null>(null);
  const { reload } = list;
  const scheduleReload = useCallback(() => {
    if (reloadSoon.current !== null) clearTimeout(reloadSoon.current);
    reloadSoon.current = setTimeout(() => void reload(), 300);
  }, [reload]);
  useEffect(
    () => () => {
      if (reloadSoon.current !== null) clearTimeout(reloadSoon.current);
    },
    [],
  );

  const live = useDeskSocket(
    (frame) => {
      scheduleReload();
      if (frame.type === 'message' && frame.userId === selected)
        setIncoming((before) => ({ message: frame.message, serial: before.serial + 1 }));
      if (
        (frame.type === 'read' && frame.userId === selected) ||
        (frame.type === 'conversation' && frame.conversation.userId === selected)
      )
        setIncoming((before) => ({ message: null, serial: before.serial + 1 }));
    },
    () => {
      scheduleReload();
      setIncoming((before) => ({ message: null, serial: before.serial + 1 }));
    },
  );

  return (
    <Page
      title={t('chat.title')}
      actions={
        <Space wrap>
          <StatusTag tone={live ? 'ok' : 'warn'}>{live ? t('chat.live') : t('chat.not_live')}</StatusTag>
          <Button onClick={() => void list.reload()}>{t('common.refresh')}</Button>
          <Button onClick={() => setSettingsOpen(true)}>{t('chat.settings')}</Button>
        </Space>
      }
    >
      <div className="console-chat">
        <section className="console-chat-list" aria-labelledby="chat-list-title">
          <h2 id="chat-list-title" className="console-section">
            {t('chat.conversations')}
          </h2>
          <Radio.Group
            optionType="button"
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as ChatStatus); // the options below are the statuses
              setSelected(null);
            }}
            aria-label={t('common.status')}
            options={(['open', 'pending', 'resolved'] as const).map((value) => ({
              value,
              label: t(`chat.status.${value}`),
            }))}
          />
          {!list.loading && list.items.length === 0 ? <p>{t('chat.none')}</p> : null}
          <ul className="console-chat-items">
            {list.items.map((item) => (
              <li key={item.userId}>
                <button
                  type="button"
                  className={`console-chat-item${item.userId === selected ? ' console-chat-item--on' : ''}`}
                  aria-current={item.userId === selected ? 'true' : undefined}
                  onClick={() => setSelected(item.userId)}
                >
                  <span className="console-chat-item-head">
                    <span className="console-break">{item.email}</span>
                    {item.unread > 0 ? (
                      <StatusTag tone="bad">{t('chat.unread', { count: item.unread })}</StatusTag>
                    ) : null}
                  </span>
                  <span className="console-chat-item-meta">
                    {item.assigneeName ?? t('chat.unassigned')}
                    {item.waitingSince
                      ? ` · ${t('chat.waiting_since', { time: formatTime(item.waitingSince) })}`
                      : ''}
                  </span>
                  {item.lastMessage ? (
                    <span className="console-chat-item-preview">
                      {item.lastMessage.text ?? t('chat.image')}
                    </span>
                  ) : null}
                </button>
              </li>
            ))}
          </ul>
          <LoadMore list={list} />
        </section>
        {selected === null ? (
          <p className="console-chat-pick">{t('chat.pick')}</p>
        ) : (
          <>
            <Conversation
              key={selected}
              userId={selected}
              language={context?.user.language ?? ''}
              incoming={incoming}
              onChanged={scheduleReload}
            />
            <CustomerContext context={context} />
          </>
        )}
      </div>
      <ChatSettings open={settingsOpen} onClose={() => setSettingsOpen(false)} />
    </Page>
  );
}

/** A message's image, read with the operator's token. */
function MessageImage({ url, alt }: { url: string; alt: string }) {
  const { api } = useConsole();
  const { t } = useI18n();
  const [source, setSource] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.image(url).then(
      (loaded) => live && setSource(loaded),
      (error: unknown) =>
        live && setFailed(error instanceof ConsoleApiError ? error.message : t('common.network_error')),
    );
    return () => {
      live = false;
    };
  }, [api, url, t]);
  if (failed !== null) return <Typography.Text type="danger">{failed}</Typography.Text>;
  if (source === null) return <span>{t('common.loading')}</span>;
  return <img className="console-chat-image" src={source} alt={alt} />;
}

function Conversation({
  userId,
  language,
  incoming,
  onChanged,
}: {
  userId: string;
  /** The customer's language: canned replies in it come first. */
  language: string;
  incoming: { message: AdminChatMessage | null; serial: number };
  onChanged: () => void;
}) {
  const { t } = useI18n();
  const { api, me } = useConsole();
  const run = useAction();
  const [messages, setMessages] = useState<AdminChatMessage[]>([]);
  const [conversation, setConversation] = useState<AdminChatConversation | null>(null);
  const [atStart, setAtStart] = useState(false);
  const [text, setText] = useState('');
  const [internal, setInternal] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [canned, setCanned] = useState<CannedReply[]>([]);
  const bottom = useRef<HTMLDivElement>(null);

  const merge = useCallback((more: readonly AdminChatMessage[]) => {
    setMessages((before) => {
      const bySeq = new Map(before.map((message) => [message.seq, message]));
      for (const message of more) bySeq.set(message.seq, message);
      return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
    });
  }, []);

  const loadNewest = useCallback(async () => {
    const page = await run(() =>
      api.read('/api/admin/chat/history', { userId, limit: 50 }, adminChatHistoryDataSchema),
    );
    if (!page) return;
    merge(page.items);
    setConversation(page.conversation);
    setAtStart(page.items.length === 0 || page.items[0]?.seq === 1);
    if (page.lastSeq > page.conversation.agentReadSeq) {
      const read = await run(() =>
        api.command('/api/admin/chat/read', { userId, seq: page.lastSeq }, adminChatConversationDataSchema),
      );
      if (read) {
        setConversation(read);
        onChanged();
      }
    }
  }, [api, merge, onChanged, run, userId]);

  useEffect(() => {
    void loadNewest();
  }, [loadNewest, incoming.serial]);

  useEffect(() => {
    if (incoming.message !== null) merge([incoming.message]);
  }, [incoming, merge]);

  useEffect(() => {
    void run(() => api.read('/api/admin/chat/canned-list', {}, adminCannedListDataSchema)).then((list) => {
      if (list) setCanned(list.items);
    });
  }, [api, run]);

  const lastSeq = messages.at(-1)?.seq ?? 0;
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: 'nearest' });
  }, [lastSeq]);

  const earlier = async () => {
    const first = messages[0]?.seq;
    if (first === undefined) return;
    const page = await run(() =>
      api.read(
        '/api/admin/chat/history',
        { userId, beforeSeq: first, limit: 50 },
        adminChatHistoryDataSchema,
      ),
    );
    if (!page) return;
    merge(page.items);
    setAtStart(page.items.length === 0 || page.items[0]?.seq === 1);
  };

  const act = async (path: '/api/admin/chat/assign' | '/api/admin/chat/resolve') => {
    const changed = await run(() => api.command(path, { userId }, adminChatConversationDataSchema));
    if (changed) {
      setConversation(changed);
      onChanged();
    }
  };

  const replies = useMemo(() => repliesFor(canned, language), [canned, language]);
  const { exact: suggestion, matching } = cannedFor(text, replies);

  const send = async () => {
    if (suggestion !== undefined) {
      setText(suggestion.text);
      return;
    }
    const trimmed = text.trim();
    if (trimmed === '') {
      setError(t('field.required', { field: t('chat.reply_label') }));
      return;
    }
    if (await reply({ text: trimmed })) setText('');
  };

  /** Sends a reply or note (text, or an image uploaded first); true when the server has it. */
  const reply = async (content: { text: string } | { image: File }): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      const body = 'text' in content ? { text: content.text } : { imageUrl: await api.upload(content.image) };
      const sent = await api.command(
        '/api/admin/chat/reply',
        { userId, ...body, internal, clientMsgId: crypto.randomUUID() },
        adminChatReplyDataSchema,
      );
      merge([sent]);
      onChanged();
      return true;
    } catch (caught) {
      setError(caught instanceof ConsoleApiError ? caught.message : t('common.network_error'));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const sendImage = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (file) void reply({ image: file }).then(() => (input.value = ''));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  const mine = conversation?.assigneeId === me.operatorId;
  return (
    <section className="console-chat-conversation" aria-labelledby="chat-conversation-title">
      <h2 id="chat-conversation-title" className="console-section">
        {conversation ? t('chat.conversation_with', { email: conversation.email }) : t('common.loading')}
      </h2>
      {conversation ? (
        <Space wrap className="console-chat-bar">
          <StatusTag tone={STATUS_TONES[conversation.status]}>
            {t(`chat.status.${conversation.status}`)}
          </StatusTag>
          <span>
            {t('chat.assignee')}: {conversation.assigneeName ?? t('chat.unassigned')}
          </span>
          <Button onClick={() => void act('/api/admin/chat/assign')} disabled={mine}>
            {t('chat.assign_me')}
          </Button>
          <Button
            onClick={() => void act('/api/admin/chat/resolve')}
            disabled={conversation.status === 'resolved'}
          >
            {t('chat.resolve')}
          </Button>
        </Space>
      ) : null}
      <div className="console-chat-log" role="log" aria-label={t('chat.messages')} tabIndex={0}>
        <p className="console-chat-top">
          {atStart ? (
            <span>{t('chat.start')}</span>
          ) : (
            <Button size="small" onClick={() => void earlier()}>
              {t('chat.earlier')}
            </Button>
          )}
        </p>
        <ol className="console-chat-messages">
          {messages.map((message) => {
            const who =
              message.from === 'customer'
                ? (conversation?.email ?? t('chat.customer'))
                : (message.agentName ?? t('chat.agent'));
            return (
              <li
                key={message.id}
                className={`console-chat-message console-chat-message--${message.internal ? 'note' : message.from}`}
                data-testid="desk-message"
              >
                <p className="console-chat-who">
                  {message.internal ? <StatusTag tone="warn">{t('chat.note')}</StatusTag> : null}
                  <span className="console-break">{who}</span> · {formatTime(message.createdAt)}
                  {message.from === 'agent' && !message.internal && conversation ? (
                    <span className="console-chat-read">
                      {' · '}
                      {message.seq <= conversation.customerReadSeq
                        ? t('chat.read_by_customer')
                        : t('chat.sent')}
                    </span>
                  ) : null}
                </p>
                {message.text !== null ? (
                  <p className="console-pre console-chat-text">{message.text}</p>
                ) : null}
                {message.imageUrl !== null ? (
                  <MessageImage url={message.imageUrl} alt={t('chat.image_from', { name: who })} />
                ) : null}
              </li>
            );
          })}
        </ol>
        <div ref={bottom} />
      </div>
      <Form
        layout="vertical"
        name="chat-reply"
        className="console-chat-composer"
        onFinish={() => void send()}
      >
        <Form.Item
          label={internal ? t('chat.note_label') : t('chat.reply_label')}
          htmlFor="chat-reply-text"
          validateStatus={error ? 'error' : ''}
          help={
            error ?? (suggestion ? t('chat.canned_hint', { code: suggestion.code }) : t('chat.reply_hint'))
          }
        >
          <Input.TextArea
            id="chat-reply-text"
            rows={3}
            maxLength={CHAT_TEXT_MAX}
            value={text}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onKeyDown}
          />
        </Form.Item>
        {matching.length > 0 ? (
          <ul className="console-chat-canned" aria-label={t('chat.canned')}>
            {matching.map((reply) => (
              <li key={reply.id}>
                <Button size="small" onClick={() => setText(reply.text)}>
                  /{reply.code}
                </Button>{' '}
                <span>{reply.text.slice(0, 80)}</span>
              </li>
            ))}
          </ul>
        ) : null}
        <Space wrap>
          <Checkbox checked={internal} onChange={(event) => setInternal(event.target.checked)}>
            {t('chat.internal')}
          </Checkbox>
          <Button type="primary" htmlType="submit" loading={busy}>
            {internal ? t('chat.add_note') : t('chat.send')}
          </Button>
          <label className="console-chat-attach">
            {t('chat.attach_image')}
            <input
              type="file"
              accept="image/jpeg,image/png,image/webp"
              onChange={sendImage}
              disabled={busy}
            />
          </label>
        </Space>
        {internal ? (
          <Alert
            className="console-chat-note-alert"
            type="warning"
            showIcon
            message={t('chat.note_warning')}
          />
        ) : null}
      </Form>
    </section>
  );
}

/** The customer beside the conversation: each part links to its console screen. */
function CustomerContext({ context }: { context: AdminChatContext | null }) {
  const { t } = useI18n();
  return (
    <section className="console-chat-context" aria-labelledby="chat-context-title">
      <h2 id="chat-context-title" className="console-section">
        {t('chat.context')}
      </h2>
      {context === null ? (
        <p>{t('common.loading')}</p>
      ) : (
        <Descriptions column={1} size="small" bordered>
          <Descriptions.Item label={t('chat.customer')}>
            <Link to="/users" className="console-break">
              {context.user.email}
            </Link>{' '}
            {context.user.frozen ? <StatusTag tone="bad">{t('chat.frozen')}</StatusTag> : null}
          </Descriptions.Item>
          <Descriptions.Item label={t('chat.identity')}>
            <Link to="/identity">{t(`identity.status.${context.identityStatus}`)}</Link>
          </Descriptions.Item>
          <Descriptions.Item label={t('chat.balances')}>
            {context.balances.length === 0
              ? t('common.none')
              : context.balances.map((balance) => (
                  <p key={balance.accountId} className="console-chat-line">
                    <Link to="/users">{balance.accountName}</Link>:{' '}
                    {t('chat.balance_line', {
                      cash: balance.cash,
                      hosting: balance.hosting,
                      held: balance.held,
                      rab: balance.rab,
                    })}
                  </p>
                ))}
          </Descriptions.Item>
          <Descriptions.Item label={t('chat.pending_withdrawals')}>
            {context.pendingWithdrawals.length === 0
              ? t('common.none')
              : context.pendingWithdrawals.map((withdrawal) => (
                  <p key={withdrawal.id} className="console-chat-line">
                    <Link to="/withdrawals">#{withdrawal.id}</Link> {withdrawal.amount} USDT ·{' '}
                    {withdrawal.status}
                  </p>
                ))}
          </Descriptions.Item>
          <Descriptions.Item label={t('chat.recent_deposits')}>
            {context.recentDeposits.length === 0
              ? t('common.none')
              : context.recentDeposits.map((deposit) => (
                  <p key={deposit.id} className="console-chat-line">
                    <Link to="/deposits">#{deposit.id}</Link> {deposit.amount} USDT · {deposit.chain} ·{' '}
                    {deposit.status}
                  </p>
                ))}
          </Descriptions.Item>
          <Descriptions.Item label={t('chat.open_feedback')}>
            {context.openFeedback.length === 0
              ? t('common.none')
              : context.openFeedback.map((feedback) => (
                  <p key={feedback.id} className="console-chat-line">
                    <Link to="/feedback">#{feedback.id}</Link> {feedback.title}
                  </p>
                ))}
          </Descriptions.Item>
        </Descriptions>
      )}
    </section>
  );
}
