/**
 * The browser's side of web push (docs/protocol.md section 34): the notification permission and
 * the service worker's PushManager. They need the window and the service worker's registration,
 * so they run in the page; the server is told through the worker (push-subscribe,
 * push-unsubscribe). Nothing here throws: a refusal comes back as a message key.
 */
import type { PushSubscribeParams } from '../../../contract/api/push.js';

export type DevicePushFailure = 'push.unsupported' | 'push.denied' | 'push.failed';
export type DevicePushResult<T> = { ok: true; value: T } | { ok: false; reason: DevicePushFailure };

/** Whether this browser can take pushes here (a secure context with service workers, PushManager and notifications). */
export function devicePushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    window.isSecureContext &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

/** The service worker's registration, or null where none controls the app (development, no support). */
async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (!devicePushSupported()) return null;
  try {
    return (await navigator.serviceWorker.getRegistration()) ?? null;
  } catch {
    return null;
  }
}

/** The subscription as the server takes it, or null when the browser gives no keys. */
function paramsOf(subscription: PushSubscription): PushSubscribeParams | null {
  const json = subscription.toJSON();
  const p256dh = json.keys?.['p256dh'];
  const auth = json.keys?.['auth'];
  if (!json.endpoint || !p256dh || !auth) return null;
  return { endpoint: json.endpoint, keys: { p256dh, auth } };
}

/** This device's current subscription (null when it has none, or cannot have one). */
export async function currentDeviceSubscription(): Promise<PushSubscribeParams | null> {
  const found = await registration();
  if (!found || Notification.permission !== 'granted') return null;
  try {
    const subscription = await found.pushManager.getSubscription();
    return subscription ? paramsOf(subscription) : null;
  } catch {
    return null;
  }
}

/**
 * Asks for the notification permission (the browser's own prompt, once), then subscribes with
 * the server's VAPID public key; an existing subscription made with another key is replaced.
 */
export async function subscribeDevice(
  vapidPublicKey: string,
): Promise<DevicePushResult<PushSubscribeParams>> {
  const found = await registration();
  if (!found) return { ok: false, reason: 'push.unsupported' };
  const permission =
    Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (permission !== 'granted') return { ok: false, reason: 'push.denied' };
  const key = base64UrlBytes(vapidPublicKey);
  if (!key) return { ok: false, reason: 'push.failed' };
  try {
    const existing = await found.pushManager.getSubscription();
    const existingKey = existing?.options.applicationServerKey;
    if (existing && existingKey && !sameBytes(new Uint8Array(existingKey), key)) await existing.unsubscribe();
    const subscription = await found.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: key.buffer.slice(key.byteOffset, key.byteOffset + key.byteLength) as ArrayBuffer,
    });
    const params = paramsOf(subscription);
    return params ? { ok: true, value: params } : { ok: false, reason: 'push.failed' };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    return { ok: false, reason: name === 'NotAllowedError' ? 'push.denied' : 'push.failed' };
  }
}

/** Ends this device's subscription in the browser; answers its endpoint (null when there was none). */
export async function unsubscribeDevice(): Promise<string | null> {
  const found = await registration();
  if (!found) return null;
  try {
    const subscription = await found.pushManager.getSubscription();
    if (!subscription) return null;
    await subscription.unsubscribe();
    return subscription.endpoint;
  } catch {
    return null;
  }
}

/** The bytes of a base64url string (the VAPID key), or null when it is not one. */
function base64UrlBytes(value: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(value)) return null;
  try {
    const binary = atob(value.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}
