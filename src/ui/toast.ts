/**
 * Toasts through antd-mobile (spec: 2000 ms by default), loaded on the first toast.
 * Every toast, once on screen, is also announced as a `TOAST_EVENT` event on window (detail: its
 * text), so a test can record what was said without racing the 2-second fade (the end-to-end
 * harness listens through an init script). The event carries nothing the screen does not show.
 */
import { TOAST_MS } from '../../contract/constants.js';

/** The window event every toast dispatches once shown, its detail the toast's text. */
export const TOAST_EVENT = 'coffer-toast';

export function toast(content: string, duration = TOAST_MS): void {
  void import('./toast-impl.js').then(({ showToast }) => {
    showToast(content, duration);
    window.dispatchEvent(new CustomEvent<string>(TOAST_EVENT, { detail: content }));
  });
}
