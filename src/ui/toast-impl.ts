/** The antd-mobile toast, in its own chunk so the first page does not carry its animation library. */
import './antd-render.js';
import { Toast } from 'antd-mobile';

export function showToast(content: string, duration: number): void {
  Toast.show({ content, duration, maskClickable: true });
}
