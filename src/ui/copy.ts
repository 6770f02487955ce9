/** The copy helper with the spec's messages (section 8). */
import { toast } from './toast.js';

export type CopyMessages = { empty: string; unsupported: string; failed: string; copied: string };

/** Copies `text`; tells the user with a toast. Returns whether it was copied. */
export async function copyText(text: string, messages: CopyMessages): Promise<boolean> {
  if (text.trim() === '') {
    toast(messages.empty);
    return false;
  }
  if (!navigator.clipboard?.writeText) {
    toast(messages.unsupported);
    return false;
  }
  try {
    await navigator.clipboard.writeText(text);
    toast(messages.copied);
    return true;
  } catch {
    toast(messages.failed);
    return false;
  }
}
