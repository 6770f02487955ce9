/** Toasts through antd-mobile (spec: 2000 ms by default), loaded on the first toast. */
import { TOAST_MS } from '../../contract/constants.js';

export function toast(content: string, duration = TOAST_MS): void {
  void import('./toast-impl.js').then(({ showToast }) => showToast(content, duration));
}
