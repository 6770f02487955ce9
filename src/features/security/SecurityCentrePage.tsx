/**
 * pages/setting/setting5, the security centre (docs/protocol.md section 31): the signed-in
 * devices, each other one with its own "End session" and all of them at once; the anti-phishing
 * code; the e-mail address. Everything here is asked of the server and sent at once, so the page
 * needs a connection: offline, the device list says so and the forms' commands are refused with
 * the network toast (they carry one-time codes or passwords: never queued).
 */
import '../../ui/antd-render.js';
import { Button, Dialog } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserSession } from '../../../contract/api/security-centre.js';
import { useOutcome } from '../../app/outcome.js';
import { useServerRead } from '../../app/use-server-read.js';
import { send } from '../../app/worker-client.js';
import { CardSection } from '../../ui/Card.js';
import { DateTime } from '../../ui/DateTime.js';
import { toast } from '../../ui/toast.js';
import { AntiPhishingForm } from './AntiPhishingForm.js';
import { EmailChangeForm } from './EmailChangeForm.js';
import './security.css';

function SessionItem({
  session,
  busy,
  onEnd,
}: {
  session: UserSession;
  busy: boolean;
  onEnd(session: UserSession): void;
}) {
  const { t } = useTranslation();
  const deviceId = `session-${session.id}-device`;
  return (
    <li className="centre-session" data-testid="session">
      <p className="centre-session__device" id={deviceId}>
        {session.device}
        {session.current ? <span className="badge badge--muted">{t('centre.this_device')}</span> : null}
      </p>
      <dl className="centre-session__facts">
        <dt>{t('centre.ip')}</dt>
        <dd>{session.ip}</dd>
        <dt>{t('centre.signed_in')}</dt>
        <dd>
          <DateTime at={session.createdAt} style="short" />
        </dd>
        <dt>{t('centre.last_seen')}</dt>
        <dd>
          <DateTime at={session.lastSeenAt} style="short" />
        </dd>
      </dl>
      {session.current ? null : (
        <Button size="small" disabled={busy} onClick={() => onEnd(session)} aria-describedby={deviceId}>
          {t('centre.end_session')}
        </Button>
      )}
    </li>
  );
}

/** The signed-in devices, asked of the server on each visit (the last answer stays while a new one is asked). */
function Sessions() {
  const { t } = useTranslation();
  const handle = useOutcome();
  const sessions = useServerRead('sessions', 'all', () => send('security-sessions'));
  const [busy, setBusy] = useState(false);
  const items = sessions.data?.items ?? [];
  const others = items.filter((item) => !item.current).length;

  /** Ends `session`, or with null every other one, once the user confirms. */
  const end = async (session: UserSession | null) => {
    const confirmed = await Dialog.confirm({
      content:
        session === null
          ? t('centre.end_others_confirm', { count: others })
          : t('centre.end_session_confirm', { device: session.device }),
      confirmText: session === null ? t('centre.end_others') : t('centre.end_session'),
      cancelText: t('common.cancel'),
    });
    if (!confirmed) return;
    setBusy(true);
    try {
      const outcome =
        session === null
          ? await send('security-end-other-sessions')
          : await send('security-end-session', { sessionId: session.id });
      if (handle(outcome)) toast(outcome.message);
      sessions.reload();
    } finally {
      setBusy(false);
    }
  };

  return (
    <CardSection id="centre-sessions" title={t('centre.sessions_title')}>
      <p className="hint">{t('centre.sessions_hint')}</p>
      {sessions.state === 'unavailable' ? (
        <Offline
          className="centre-offline"
          message={t('centre.sessions_offline')}
          onRetry={sessions.reload}
        />
      ) : null}
      {sessions.data === null ? (
        sessions.state === 'loading' ? (
          <p className="hint">{t('centre.sessions_loading')}</p>
        ) : null
      ) : (
        <>
          <ul className="centre-sessions" aria-busy={sessions.state === 'loading'}>
            {items.map((item) => (
              <SessionItem key={item.id} session={item} busy={busy} onEnd={(one) => void end(one)} />
            ))}
          </ul>
          {others > 0 ? (
            <Button block color="danger" fill="outline" disabled={busy} onClick={() => void end(null)}>
              {t('centre.end_others')}
            </Button>
          ) : null}
        </>
      )}
    </CardSection>
  );
}

/** What could not be read without a connection, said as a status, with the button that reads it again. */
function Offline({ className, message, onRetry }: { className: string; message: string; onRetry(): void }) {
  const { t } = useTranslation();
  return (
    <div className={className}>
      <p className="hint" role="status">
        {message}
      </p>
      <Button size="small" onClick={onRetry}>
        {t('security.retry')}
      </Button>
    </div>
  );
}

export default function SecurityCentrePage() {
  const { t } = useTranslation();
  // The profile says which confirmation the code takes and the current address; asked like the list.
  const user = useServerRead('user', 'info', () => send('user-info'));
  return (
    <div className="page-padding stack">
      <Sessions />
      {user.data !== null ? (
        <>
          <AntiPhishingForm user={user.data} onDone={user.reload} />
          <EmailChangeForm user={user.data} onDone={user.reload} />
        </>
      ) : user.state === 'unavailable' ? (
        <Offline className="card centre-offline" message={t('centre.forms_offline')} onRetry={user.reload} />
      ) : (
        <p className="hint">{t('common.loading')}</p>
      )}
    </div>
  );
}
