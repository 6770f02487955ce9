/**
 * The forced update of spec section 4: "A new version with a major update was detected, update
 * now"; the hot package downloads through the service worker, then a restart prompt appears.
 * Restarting first lets any command on the wire finish (the page never reloads mid-send), then
 * activates the new version and reloads. Also shown, at the restart step, when another tab
 * activated a new version under this one.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REQUEST_TIMEOUT_MS } from '../../contract/constants.js';
import { activateUpdate, downloadUpdate, onUpdatedElsewhere, quiesceSending } from './service-worker.js';
import { noteReloadFor, useUpdateCheck, type UpdatePlan } from './update.js';

type Stage = 'offer' | 'downloading' | 'failed' | 'restart' | 'restarting';

export function AppUpdate() {
  const plan = useUpdateCheck();
  const [elsewhere, setElsewhere] = useState(false);
  useEffect(() => onUpdatedElsewhere(() => setElsewhere(true)), []);
  if (plan === null && !elsewhere) return null;
  return <UpdateDialog plan={plan} startAt={plan === null ? 'restart' : 'offer'} />;
}

function UpdateDialog({ plan, startAt }: { plan: UpdatePlan | null; startAt: Stage }) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const [stage, setStage] = useState<Stage>(startAt);
  const [hidden, setHidden] = useState(false);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  const update = async () => {
    if (plan?.kind === 'full') {
      setHidden(true);
      window.location.assign(plan.url);
      return;
    }
    setStage('downloading');
    const downloaded = await downloadUpdate(REQUEST_TIMEOUT_MS);
    setStage(downloaded === 'failed' ? 'failed' : 'restart');
  };

  const restart = async () => {
    setStage('restarting');
    await quiesceSending();
    if (plan !== null) noteReloadFor(plan.hotVersionCode);
    await activateUpdate();
  };

  if (hidden) return null;
  const busy = stage === 'downloading' || stage === 'restarting';
  const message = {
    offer: t('update.major'),
    downloading: t('update.downloading'),
    failed: t('update.download_failed'),
    restart: t('update.installed'),
    restarting: t('update.finishing'),
  }[stage];
  const action = stage === 'restart' || stage === 'restarting' ? restart : update;
  const label = {
    offer: t('update.now'),
    downloading: t('update.now'),
    failed: t('update.retry'),
    restart: t('update.restart'),
    restarting: t('update.restart'),
  }[stage];

  return (
    <dialog
      ref={dialog}
      className="update-dialog"
      aria-labelledby="update-title"
      aria-describedby="update-message"
      // Forced: Escape does not close it.
      onCancel={(event) => event.preventDefault()}
    >
      <h2 id="update-title">{t('update.title')}</h2>
      <p id="update-message" role="status">
        {message}
      </p>
      <button
        type="button"
        className="solid-button update-dialog__action"
        disabled={busy}
        aria-busy={busy}
        onClick={() => void action()}
      >
        {busy && <span className="spinner spinner--small" aria-hidden="true" />}
        {label}
      </button>
    </dialog>
  );
}
