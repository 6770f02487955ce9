/**
 * Toasts through antd-mobile (spec: 2000 ms by default), their code in a chunk of its own that is
 * fetched once the first page is on screen (`preloadToasts`, src/app/first-page.ts), so a toast shown offline later
 * never waits for the network (nor for the service worker to have precached it).
 * Every toast, once on screen, is also announced as a `TOAST_EVENT` event on window (detail: its
 * text), so a test can record what was said without racing the 2-second fade (the end-to-end
 * harness listens through an init script). The event carries nothing the screen does not show.
 */
import { TOAST_MS } from '../../contract/constants.js';
import type * as ToastImpl from './toast-impl.js';

/** The window event every toast dispatches once shown, its detail the toast's text. */
export const TOAST_EVENT = 'coffer-toast';

let loading: Promise<typeof ToastImpl> | null = null;

/** The toast chunk, fetched once; a failed fetch (offline before it came) is tried again next time. */
function toastImpl(): Promise<typeof ToastImpl> {
  loading ??= import('./toast-impl.js').catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

/** Fetches the toast code now (the caller waits for the first page to be on screen). */
export function preloadToasts(): void {
  void toastImpl().catch(() => undefined);
}

export function toast(content: string, duration = TOAST_MS): void {
  void toastImpl().then(
    ({ showToast }) => {
      showToast(content, duration);
      window.dispatchEvent(new CustomEvent<string>(TOAST_EVENT, { detail: content }));
    },
    () => undefined, // the chunk could not be fetched (offline before it was): nothing to show it with
  );
}
