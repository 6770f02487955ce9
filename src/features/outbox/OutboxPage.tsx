/**
 * Pending commands (pages/second/second1): the user's queued, sending and failed commands from
 * the `outbox` table, with cancel, retry and dismiss through the worker; then those the server
 * confirmed in the last day, so a change made offline is seen to arrive.
 */
import '../../ui/antd-render.js';
import { Button } from 'antd-mobile';
import { useLiveQuery } from 'dexie-react-hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StackSection } from '../../ui/Card.js';
import type { OutboxRecord } from '../../../worker/commands.js';
import { carriesSecrets } from './command-kinds.js';
import { send } from '../../app/worker-client.js';
import { useUserDb } from '../../../client-db/use-sync-db.js';
import { toast } from '../../ui/toast.js';
import { useRefusalMessage } from './messages.js';
import { canCancel, canRetry, listedRows, recentlyConfirmed } from './outbox-view.js';
import { DateTime } from '../../ui/DateTime.js';

export default function OutboxPage() {
  const { t } = useTranslation();
  const db = useUserDb();
  const lists = useLiveQuery(async () => {
    const all = db === null ? [] : await db.outbox.toArray();
    return { pending: listedRows(all), recent: recentlyConfirmed(all, Date.now()) };
  }, [db]);
  if (lists === undefined) return null;
  return (
    <div className="page-padding stack">
      <p className="muted">{t('outbox.intro')}</p>
      <StackSection id="outbox-pending" title={t('outbox.pending')}>
        {lists.pending.length === 0 ? (
          <p className="card muted">{t('outbox.empty')}</p>
        ) : (
          <ul className="card row-list">
            {lists.pending.map((row) => (
              <OutboxRow key={row.id} row={row} />
            ))}
          </ul>
        )}
      </StackSection>
      {lists.recent.length > 0 && (
        <StackSection id="outbox-recent" title={t('outbox.recent')}>
          <ul className="card row-list">
            {lists.recent.map((row) => (
              <OutboxRow key={row.id} row={row} />
            ))}
          </ul>
        </StackSection>
      )}
    </div>
  );
}

function OutboxRow({ row }: { row: OutboxRecord }) {
  const { t } = useTranslation();
  const refusal = useRefusalMessage();
  const [busy, setBusy] = useState(false);
  const act = async (action: RowAction) => {
    setBusy(true);
    try {
      const result = await send(`outbox-${action}`, { id: row.id });
      if (result.kind === 'refused') toast(refusal(result));
    } finally {
      setBusy(false);
    }
  };
  const kind = t(`outbox.kind_${row.kind}`);
  return (
    <li className="row">
      <div className="row__head">
        <h3 className="row__title">{kind}</h3>
        <span
          className={`badge ${row.state === 'rejected' || row.state === 'expired' ? '' : 'badge--muted'}`}
        >
          {t(`outbox.state_${row.state}`)}
        </span>
      </div>
      <p className="muted">{summaryOf(row)}</p>
      <p className="muted">
        <DateTime at={row.createdAtMs} style="short" />
      </p>
      {row.state === 'rejected' && row.answer && (
        <p role="note">{t('outbox.refused_by_server', { message: row.answer.message })}</p>
      )}
      {/* The raw error (a browser's "Failed to fetch") is in no user's language: say what it means. */}
      {(row.state === 'queued' || row.state === 'sending') && row.lastError && (
        <p className="muted">{t('outbox.last_error')}</p>
      )}
      <div className="row__actions">
        {canCancel(row) && <RowActionButton action="cancel" kind={kind} busy={busy} onAct={act} />}
        {canRetry(row) && (
          <>
            {/* A withdrawal's code and password are gone once it failed: the user withdraws again. */}
            {!carriesSecrets(row) && (
              <RowActionButton action="retry" kind={kind} busy={busy} onAct={act} primary />
            )}
            <RowActionButton action="dismiss" kind={kind} busy={busy} onAct={act} />
          </>
        )}
      </div>
    </li>
  );
}

type RowAction = 'cancel' | 'retry' | 'dismiss';

/** A row's action button, named with the command's kind for assistive technology. */
function RowActionButton({
  action,
  kind,
  busy,
  onAct,
  primary = false,
}: {
  action: RowAction;
  kind: string;
  busy: boolean;
  onAct: (action: RowAction) => Promise<void>;
  primary?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Button
      size="small"
      color={primary ? 'primary' : 'default'}
      disabled={busy}
      onClick={() => void onAct(action)}
      aria-label={t(`outbox.${action}_named`, { kind })}
    >
      {t(`outbox.${action}`)}
    </Button>
  );
}

/** What the command carries, as the user typed it. */
function summaryOf(row: OutboxRecord): string {
  switch (row.kind) {
    case 'profile-nickname':
      return row.params.nickname;
    case 'profile-avatar':
      return row.params.avatar;
    case 'feedback-submit':
      return row.params.title;
    case 'identity-submit':
      return row.params.realName;
    case 'chat-send':
      return row.params.text ?? row.params.image?.name ?? '';
    case 'account-transfer':
      return `${row.params.amount} ${row.params.asset}`;
    case 'account-create':
      return row.params.name;
    case 'account-switch':
      return `#${row.params.accountId}`;
    case 'withdraw-create':
      return `${row.params.amount} USDT`;
    case 'exchange-submit':
      return `${row.params.amount} ${row.params.direction === 'rab_to_usdt' ? 'RAB' : 'USDT'}`;
    case 'machine-buy':
    case 'machine-rent':
      return `#${row.params.machineId} × ${row.params.quantity}`;
    case 'dividend-claim':
      return `${row.params.amount} USDT`;
    case 'hosting-create':
    case 'hosting-add':
    case 'hosting-sub':
      return `${row.params.amount} USDT`;
    case 'hosting-redeem':
    case 'otc-cancel':
      return `#${row.params.orderId}`;
    case 'otc-buy':
    case 'otc-sell':
    case 'otc-take':
      return `${row.params.volume} RAB × ${row.params.price} USDT`;
  }
}
