/**
 * The one flow of a form's outbox command on the money pages (withdrawal, exchange, machines,
 * hosting, OTC): enqueue it, follow it to its end, and tell the end once. What must stay true:
 * a refusal at the worker's edge becomes the form's notice (and the error of the field it
 * names); a command still queued from an earlier visit is followed too, by its id from then on;
 * the server's refusal goes through useOutcome (300, 4900 and 4901 redirect, 401 to login); a
 * refused, expired or stale command is dismissed from the outbox, since the form told it.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EnqueueInput, OutboxRecord } from '../../../worker/commands.js';
import { useOutcome, type FieldErrorSink } from '../../app/outcome.js';
import { send } from '../../app/worker-client.js';
import type { ActiveAccount } from '../../../client-db/use-sync-db.js';
import { useSettled, type PricedOutcome } from './command-outcome.js';
import { useRefusalMessage } from './messages.js';
import { useAccountCommand, type AccountKind } from './use-account-command.js';

/** The form's words for the ends other than done, in the user's language. */
export interface FlowTexts {
  /** The worker refused to queue it because the link is down (else the outbox's own words). */
  offline?: string;
  refused: (message: string) => string;
  expired: string;
  cancelled: string;
  /** A 409 at a price the user saw (the book is pulled again); no notice without it. */
  stale?: (message: string) => string;
}

/** The namespaces that name the four ends `offline`, `refused`, `expired` and `cancelled`. */
type FlowNamespace = 'exchange' | 'machine' | 'trading' | 'withdraw';

/** A form's words for the ends other than done, from its namespace's four keys. */
export function useFlowTexts(namespace: FlowNamespace): FlowTexts {
  const { t } = useTranslation();
  return {
    offline: t(`${namespace}.offline`),
    refused: (message) => t(`${namespace}.refused`, { message }),
    expired: t(`${namespace}.expired`),
    cancelled: t(`${namespace}.cancelled`),
  };
}

export interface CommandFlowOptions<K extends AccountKind, O extends PricedOutcome> {
  kind: K | readonly K[];
  active: ActiveAccount;
  /** Narrows the commands followed to params with these values (the machine the form shows). */
  match?: Readonly<Record<string, string>>;
  /** Whether a command of these kinds still queued from an earlier visit is followed; default true. */
  resume?: boolean;
  /** `commandOutcome`, or `pricedOutcome` where a 409 means the price changed. */
  outcomeOf: (command: Extract<OutboxRecord, { kind: K }>) => O | null;
  texts: FlowTexts;
  /** Where a refusal naming a field is shown beside it. */
  sink?: FieldErrorSink;
  /** What the form does beyond the notice once the command ends (a toast, clearing a field). */
  onSettled?: (command: Extract<OutboxRecord, { kind: K }>, outcome: O) => void;
}

export interface CommandFlow<K extends AccountKind> {
  /** The command followed: undefined while loading, null when none. */
  command: Extract<OutboxRecord, { kind: K }> | null | undefined;
  /** Being queued, queued or being sent: the submit button shows it and the notice waits. */
  sending: boolean;
  /** Why the last command was not made, or null. */
  notice: string | null;
  /** Queues the command; true when queued (false: refused, and the notice says why). */
  enqueue: (input: Extract<EnqueueInput, { kind: K }>) => Promise<boolean>;
  /** Follows a command queued elsewhere (a panel of the form) and clears the notice. */
  follow: (id: string) => void;
}

export function useCommandFlow<K extends AccountKind, O extends PricedOutcome>(
  options: CommandFlowOptions<K, O>,
): CommandFlow<K> {
  const { kind, active, match, resume = true, outcomeOf, texts, sink, onSettled } = options;
  const handle = useOutcome();
  const refusal = useRefusalMessage();
  const [commandId, setCommandId] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [enqueuing, setEnqueuing] = useState(false);
  const command = useAccountCommand(kind, active, commandId, match, resume);

  // One still being sent from an earlier visit is followed by its id from now on.
  // Read through the whole union: TypeScript does not see the shared fields of a generic Extract.
  const followed: OutboxRecord | null | undefined = command;
  useEffect(() => {
    if (followed != null && commandId === null) setCommandId(followed.id);
  }, [followed, commandId]);

  // The command's answer, once: the form says it, then lets the user go on or try again.
  useSettled(command, outcomeOf, (settled, outcome) => {
    switch (outcome.kind) {
      case 'done':
        setNotice(null);
        break;
      case 'stale':
        setNotice(texts.stale?.(outcome.message) ?? null);
        void send('sync-pull');
        break;
      case 'refused':
        handle({ kind: 'refused', code: outcome.code, message: outcome.message, data: null });
        setNotice(texts.refused(outcome.message));
        break;
      case 'expired':
        setNotice(texts.expired);
        break;
      case 'cancelled':
        setNotice(texts.cancelled);
        break;
    }
    onSettled?.(settled, outcome);
    const { id }: OutboxRecord = settled;
    if (outcome.kind !== 'done' && outcome.kind !== 'cancelled') void send('outbox-dismiss', { id });
  });

  const enqueue = async (input: Extract<EnqueueInput, { kind: K }>): Promise<boolean> => {
    setNotice(null);
    setEnqueuing(true);
    try {
      const result = await send('outbox-enqueue', input);
      if (result.kind === 'refused') {
        const text =
          result.reason === 'offline' && texts.offline !== undefined ? texts.offline : refusal(result);
        setNotice(text);
        if (result.reason === 'invalid_input' && sink?.fields.includes(result.field))
          sink.show(result.field, text);
        return false;
      }
      setCommandId(result.id);
      return true;
    } finally {
      setEnqueuing(false);
    }
  };

  const follow = (id: string) => {
    setNotice(null);
    setCommandId(id);
  };

  const sending =
    enqueuing || (followed != null && (followed.state === 'queued' || followed.state === 'sending'));
  return { command, sending, notice, enqueue, follow };
}
