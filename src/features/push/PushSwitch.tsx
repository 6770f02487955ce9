/**
 * Settings › Notifications on this device (docs/protocol.md section 34): one switch per device.
 * On: the browser's permission prompt, a PushManager subscription with the server's VAPID key,
 * then push-subscribe through the worker. Off: the browser's subscription ends (so the push
 * service refuses further pushes whatever the server knows) and push-unsubscribe tells the
 * server. When the page opens with the device subscribed, and when the language changes, the
 * subscription is sent again: it binds to this session and the language the pushes use.
 */
import { useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BodyCode } from '../../../contract/codes.js';
import { useOutcome } from '../../app/outcome.js';
import { send } from '../../app/worker-client.js';
import { toast } from '../../ui/toast.js';
import {
  currentDeviceSubscription,
  devicePushSupported,
  subscribeDevice,
  unsubscribeDevice,
} from './device-push.js';
import './push.css';

type State = 'checking' | 'unsupported' | 'off' | 'on';

export function PushSwitch() {
  const { t, i18n } = useTranslation();
  const handle = useOutcome();
  const id = useId();
  const [state, setState] = useState<State>('checking');
  const [busy, setBusy] = useState(false);

  // The device's subscription, sent again in the current language (refreshes its session too).
  useEffect(() => {
    let live = true;
    if (!devicePushSupported()) {
      setState('unsupported');
      return;
    }
    void currentDeviceSubscription().then(async (subscription) => {
      if (!live) return;
      setState(subscription ? 'on' : 'off');
      if (subscription) await send('push-subscribe', subscription);
    });
    return () => {
      live = false;
    };
  }, [i18n.language]);

  const turnOn = useCallback(async () => {
    const key = await send('push-key');
    if (!handle(key)) return false;
    const subscribed = await subscribeDevice(key.data.publicKey);
    if (!subscribed.ok) {
      toast(t(subscribed.reason));
      return false;
    }
    const saved = await send('push-subscribe', subscribed.value);
    if (!handle(saved)) {
      await unsubscribeDevice();
      return false;
    }
    toast(saved.message);
    return true;
  }, [handle, t]);

  const turnOff = useCallback(async () => {
    const endpoint = await unsubscribeDevice();
    if (endpoint !== null) {
      const told = await send('push-unsubscribe', { endpoint });
      // Not known to the server (already gone) is off too; offline, the push service refuses anyway.
      if (told.kind === 'refused' && told.code !== BodyCode.notFound) handle(told);
    }
    toast(t('push.off'));
  }, [handle, t]);

  const toggle = async (on: boolean) => {
    setBusy(true);
    try {
      if (on) setState((await turnOn()) ? 'on' : 'off');
      else {
        await turnOff();
        setState('off');
      }
    } finally {
      setBusy(false);
    }
  };

  const denied = state !== 'unsupported' && devicePushSupported() && Notification.permission === 'denied';
  return (
    <section className="card push-switch" aria-labelledby={`${id}-title`}>
      <div className="push-switch__row">
        <label htmlFor={id} id={`${id}-title`} className="push-switch__label">
          {t('push.switch')}
        </label>
        <input
          id={id}
          type="checkbox"
          role="switch"
          className="push-switch__input"
          checked={state === 'on'}
          aria-describedby={`${id}-hint`}
          disabled={busy || state === 'checking' || state === 'unsupported'}
          onChange={(event) => void toggle(event.target.checked)}
        />
      </div>
      <p id={`${id}-hint`} className="muted push-switch__hint">
        {state === 'unsupported' ? t('push.unsupported') : denied ? t('push.denied') : t('push.hint')}
      </p>
    </section>
  );
}
