/**
 * pages/setting/passkeys (Settings › Passkeys; docs/protocol.md section 33): the user's passkeys
 * with their names and dates, adding one (the login password, and the authenticator code when
 * one is bound, then the browser's passkey dialog), renaming and removing one after a
 * confirmation. The browser's WebAuthn call runs here; the API calls go through the worker.
 */
import { Button } from 'antd-mobile';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Passkey } from '../../../contract/api/passkeys.js';
import { PASSKEY_NAME_MAX_LENGTH } from '../../../contract/constants.js';
import { checkCode, checkPassword, checkRequired } from '../../../contract/validation.js';
import type { Outcome } from '../../../sync/ports.js';
import { useOutcome, type FieldErrorSink } from '../../app/outcome.js';
import { send } from '../../app/worker-client.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { DateTime } from '../../ui/DateTime.js';
import { Field } from '../../ui/Field.js';
import { useChecks } from '../../ui/field-messages.js';
import { OneTimeCodeField, PasswordField, SubmitButton } from '../../ui/form-fields.js';
import { toast } from '../../ui/toast.js';
import { useForm } from '../../ui/use-form.js';
import { useUserInfo } from '../security/use-user-info.js';
import { createPasskey, passkeysSupported } from './webauthn.js';
import './passkeys.css';

type ListState = { kind: 'loading' } | { kind: 'ready'; items: Passkey[] } | { kind: 'failed' };

function usePasskeyList() {
  const handle = useOutcome();
  const [state, setState] = useState<ListState>({ kind: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    void send('passkey-list').then((outcome) => {
      if (!live) return;
      setState(handle(outcome) ? { kind: 'ready', items: outcome.data.items } : { kind: 'failed' });
    });
    return () => {
      live = false;
    };
  }, [handle, round]);
  const reload = useCallback(() => setRound((value) => value + 1), []);
  return { state, reload };
}

function AddPasskey({ authenticatorBound, onAdded }: { authenticatorBound: boolean; onAdded(): void }) {
  const { t } = useTranslation();
  const handle = useOutcome();
  const check = useChecks();
  const form = useForm({ name: '', password: '', googleCode: '' });
  const submit = form.submit(
    ({ name, password, googleCode }) =>
      check({
        name: checkRequired(name.trim()),
        password: checkPassword(password),
        googleCode: authenticatorBound ? checkCode(googleCode.trim()) : null,
      }),
    async ({ name, password, googleCode }) => {
      const options = await send('passkey-register-options', {
        password,
        ...(authenticatorBound ? { googleCode: googleCode.trim() } : {}),
      });
      if (!handle(options, form.sink)) return;
      const created = await createPasskey(options.data.options);
      if (!created.ok) {
        toast(t(created.reason));
        return;
      }
      const added = await send('passkey-register', {
        challengeId: options.data.challengeId,
        name: name.trim(),
        response: created.response,
      });
      if (!handle(added, form.sink)) return;
      toast(added.message);
      form.set('name')('');
      form.set('password')('');
      form.set('googleCode')('');
      onAdded();
    },
  );
  return (
    <form className="form card" onSubmit={submit} noValidate aria-labelledby="passkey-add-title">
      <h2 id="passkey-add-title">{t('passkeys.add_title')}</h2>
      <p className="hint">{t('passkeys.add_hint')}</p>
      <Field
        label={t('passkeys.name')}
        autoComplete="off"
        maxLength={PASSKEY_NAME_MAX_LENGTH}
        placeholder={t('passkeys.name_placeholder')}
        {...form.bind('name')}
      />
      <PasswordField
        label={t('settings.login_password')}
        autoComplete="current-password"
        {...form.bind('password')}
      />
      {authenticatorBound ? (
        <OneTimeCodeField label={t('field.authenticatorCode')} {...form.bind('googleCode')} />
      ) : null}
      <SubmitButton busy={form.busy}>{t('passkeys.add_submit')}</SubmitButton>
    </form>
  );
}

/**
 * A dialog's command: `busy` while it is sent; an accepted one is the server's toast, then
 * `onDone`; a refusal is handled as every outcome is (beside the field `sink` names, if any).
 */
function useDialogSend(onDone: () => void) {
  const handle = useOutcome();
  const [busy, setBusy] = useState(false);
  const run = async (sending: Promise<Outcome<unknown>>, sink?: FieldErrorSink) => {
    setBusy(true);
    try {
      const outcome = await sending;
      if (!handle(outcome, sink)) return;
      toast(outcome.message);
      onDone();
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}

function RenameDialog({ passkey, onClose, onDone }: { passkey: Passkey; onClose(): void; onDone(): void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(passkey.name);
  const [error, setError] = useState<string | undefined>();
  const { busy, run } = useDialogSend(onDone);
  const rename = async () => {
    if (name.trim() === '') {
      setError(t('passkeys.name_required'));
      return;
    }
    await run(send('passkey-rename', { id: passkey.id, name: name.trim() }), {
      fields: ['name'],
      show: (_field, message) => setError(message),
    });
  };
  return (
    <ConfirmDialog
      title={t('passkeys.rename_title')}
      subtitle={t('passkeys.rename_subtitle', { name: passkey.name })}
      confirmLabel={t('passkeys.rename_confirm')}
      busy={busy}
      onConfirm={() => void rename()}
      onClose={onClose}
    >
      <Field
        label={t('passkeys.name')}
        autoComplete="off"
        maxLength={PASSKEY_NAME_MAX_LENGTH}
        value={name}
        onChange={(value) => {
          setName(value);
          setError(undefined);
        }}
        error={error}
      />
    </ConfirmDialog>
  );
}

function RemoveDialog({ passkey, onClose, onDone }: { passkey: Passkey; onClose(): void; onDone(): void }) {
  const { t } = useTranslation();
  const { busy, run } = useDialogSend(onDone);
  const remove = () => run(send('passkey-remove', { id: passkey.id }));
  return (
    <ConfirmDialog
      title={t('passkeys.remove_title', { name: passkey.name })}
      subtitle={t('passkeys.remove_subtitle')}
      confirmLabel={t('passkeys.remove_confirm')}
      busy={busy}
      onConfirm={() => void remove()}
      onClose={onClose}
    >
      <p className="hint">{t('passkeys.remove_effect')}</p>
    </ConfirmDialog>
  );
}

function PasskeyRow({
  passkey,
  onRename,
  onRemove,
}: {
  passkey: Passkey;
  onRename(): void;
  onRemove(): void;
}) {
  const { t } = useTranslation();
  return (
    <li className="card passkey-row">
      <p className="passkey-row__name">{passkey.name}</p>
      <p className="hint">
        {t('passkeys.added_on')} <DateTime at={passkey.createdAt} style="date" />
        {' · '}
        {passkey.lastUsedAt === null ? (
          t('passkeys.never_used')
        ) : (
          <>
            {t('passkeys.last_used')} <DateTime at={passkey.lastUsedAt} style="short" />
          </>
        )}
      </p>
      <div className="passkey-row__actions">
        <Button
          size="small"
          onClick={onRename}
          aria-label={t('passkeys.rename_named', { name: passkey.name })}
        >
          {t('passkeys.rename')}
        </Button>
        <Button
          size="small"
          color="danger"
          fill="outline"
          onClick={onRemove}
          aria-label={t('passkeys.remove_named', { name: passkey.name })}
        >
          {t('passkeys.remove')}
        </Button>
      </div>
    </li>
  );
}

export default function PasskeysPage() {
  const { t } = useTranslation();
  const { user } = useUserInfo();
  const { state, reload } = usePasskeyList();
  const [acting, setActing] = useState<{ kind: 'rename' | 'remove'; passkey: Passkey } | null>(null);
  const close = () => setActing(null);
  const done = () => {
    setActing(null);
    reload();
  };
  return (
    <div className="page-padding stack">
      <section aria-labelledby="passkeys-list-title">
        <h2 id="passkeys-list-title">{t('passkeys.list_title')}</h2>
        <p className="hint">{t('passkeys.intro')}</p>
        {state.kind === 'loading' ? <p className="hint">{t('common.loading')}</p> : null}
        {state.kind === 'failed' ? (
          <Button size="small" onClick={reload}>
            {t('passkeys.retry')}
          </Button>
        ) : null}
        {state.kind === 'ready' && state.items.length === 0 ? (
          <p className="hint">{t('passkeys.none')}</p>
        ) : null}
        {state.kind === 'ready' && state.items.length > 0 ? (
          <ul className="passkey-list">
            {state.items.map((passkey) => (
              <PasskeyRow
                key={passkey.id}
                passkey={passkey}
                onRename={() => setActing({ kind: 'rename', passkey })}
                onRemove={() => setActing({ kind: 'remove', passkey })}
              />
            ))}
          </ul>
        ) : null}
      </section>
      {!passkeysSupported() ? (
        <p className="hint">{t('passkeys.unsupported')}</p>
      ) : user === null ? (
        <p className="hint">{t('common.loading')}</p>
      ) : (
        <AddPasskey authenticatorBound={user.authenticatorBound} onAdded={reload} />
      )}
      {acting?.kind === 'rename' ? (
        <RenameDialog passkey={acting.passkey} onClose={close} onDone={done} />
      ) : null}
      {acting?.kind === 'remove' ? (
        <RemoveDialog passkey={acting.passkey} onClose={close} onDone={done} />
      ) : null}
    </div>
  );
}
