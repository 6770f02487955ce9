/**
 * pages/update_pwd/update_pwd3 (body code 4900 leads here): binds an authenticator app with the
 * key shown as a QR code and as text to copy, or moves a bound one to a new key (a code from
 * each; withdrawals then wait 24 hours). A key is made by the server on each visit, so this page
 * needs a connection; nothing here is queued.
 */
import { Button } from 'antd-mobile';
import QRCode from 'qrcode';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Google2FaData } from '../../../contract/api/security.js';
import { checkCode } from '../../../contract/validation.js';
import { useOutcome } from '../../app/outcome.js';
import { send } from '../../app/worker-client.js';
import { useCopy } from '../../ui/use-copy.js';
import { toast } from '../../ui/toast.js';
import { OneTimeCodeField, SubmitButton } from '../../ui/form-fields.js';
import { useChecks } from '../../ui/field-messages.js';
import { useForm } from '../../ui/use-form.js';
import { SetOrChange } from './SetOrChange.js';
import './security.css';

type KeyState = { kind: 'loading' } | { kind: 'ready'; key: Google2FaData; qr: string } | { kind: 'failed' };

/** A new key from the server and its QR code (SVG, as the recharge page draws addresses). */
function useNewKey(enabled: boolean) {
  const handle = useOutcome();
  const [state, setState] = useState<KeyState>({ kind: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (!enabled) return undefined;
    let live = true;
    setState({ kind: 'loading' });
    void send('security-new-authenticator-key').then(async (outcome) => {
      if (!live) return;
      if (!handle(outcome)) {
        setState({ kind: 'failed' });
        return;
      }
      const svg = await QRCode.toString(outcome.data.otpauthUrl, {
        type: 'svg',
        errorCorrectionLevel: 'M',
        margin: 2,
        color: { dark: '#17201e', light: '#ffffff' },
      });
      if (live) {
        setState({
          kind: 'ready',
          key: outcome.data,
          qr: `data:image/svg+xml;utf8,${encodeURIComponent(svg)}`,
        });
      }
    });
    return () => {
      live = false;
    };
  }, [enabled, handle, round]);
  const retry = useCallback(() => setRound((value) => value + 1), []);
  return { state, retry };
}

/** The QR code, the key as text with its copy button, and the warning to keep it safe. */
function KeyCard({ state, retry }: { state: KeyState; retry(): void }) {
  const { t } = useTranslation();
  const copy = useCopy();
  if (state.kind === 'loading') return <p className="hint">{t('security.key_loading')}</p>;
  if (state.kind === 'failed') {
    return (
      <section className="card security-key">
        <p className="hint">{t('security.key_unavailable')}</p>
        <Button size="small" onClick={retry}>
          {t('security.retry')}
        </Button>
      </section>
    );
  }
  return (
    <section className="card security-key" aria-label={t('field.secret')}>
      <p className="hint">{t('security.scan_hint')}</p>
      <img className="security-key__qr" src={state.qr} alt={t('security.qr_alt')} width="192" height="192" />
      <p className="security-key__label">{t('field.secret')}</p>
      <p className="security-key__secret" data-testid="authenticator-secret">
        {/* In groups of four, as apps show keys; the copy button copies it without the spaces. */}
        {state.key.secret.replace(/(.{4})(?=.)/g, '$1 ')}
      </p>
      <Button size="small" onClick={() => copy(state.key.secret)}>
        {t('security.copy_key')}
      </Button>
      <p className="hint">{t('security.key_warning')}</p>
    </section>
  );
}

function BindAuthenticator({ onDone }: { onDone(): void }) {
  const { t } = useTranslation();
  const handle = useOutcome();
  const check = useChecks();
  const { state, retry } = useNewKey(true);
  const form = useForm({ code: '' });
  const submit = form.submit(
    ({ code }) => check({ code: checkCode(code.trim()) }),
    async ({ code }) => {
      const outcome = await send('security-bind-authenticator', { code: code.trim() });
      if (!handle(outcome, form.sink)) return;
      toast(outcome.message);
      onDone();
    },
  );
  return (
    <form className="form page-padding" onSubmit={submit} noValidate aria-labelledby="bind-title">
      <h2 id="bind-title">{t('security.bind_title')}</h2>
      <KeyCard state={state} retry={retry} />
      <OneTimeCodeField label={t('field.authenticatorCode')} {...form.bind('code')} />
      <SubmitButton busy={form.busy}>{t('security.bind_submit')}</SubmitButton>
    </form>
  );
}

function ModifyAuthenticator({ onDone }: { onDone(): void }) {
  const { t } = useTranslation();
  const handle = useOutcome();
  const check = useChecks();
  const [started, setStarted] = useState(false);
  const { state, retry } = useNewKey(started);
  const form = useForm({ oldCode: '', newCode: '' });
  const submit = form.submit(
    ({ oldCode, newCode }) =>
      check({ oldCode: checkCode(oldCode.trim()), newCode: checkCode(newCode.trim()) }),
    async ({ oldCode, newCode }) => {
      if (state.kind !== 'ready') return;
      const outcome = await send('security-modify-authenticator', {
        oldCode: oldCode.trim(),
        newCode: newCode.trim(),
        secret: state.key.secret,
      });
      if (!handle(outcome, form.sink)) return;
      toast(outcome.message);
      onDone();
    },
  );
  return (
    <form className="form page-padding" onSubmit={submit} noValidate aria-labelledby="modify-title">
      <h2 id="modify-title">{t('security.modify_title')}</h2>
      <p className="hint">{t('security.modify_hint')}</p>
      {started ? (
        <>
          <KeyCard state={state} retry={retry} />
          <OneTimeCodeField label={t('field.oldCode')} {...form.bind('oldCode')} />
          <OneTimeCodeField label={t('field.newCode')} {...form.bind('newCode')} />
          <SubmitButton busy={form.busy}>{t('security.modify_submit')}</SubmitButton>
        </>
      ) : (
        <Button block size="large" onClick={() => setStarted(true)}>
          {t('security.modify_start')}
        </Button>
      )}
    </form>
  );
}

export default function AuthenticatorPage() {
  return (
    <SetOrChange
      isSet={(user) => user.authenticatorBound}
      set={(done) => <BindAuthenticator onDone={done} />}
      change={(_user, done) => <ModifyAuthenticator onDone={done} />}
    />
  );
}
