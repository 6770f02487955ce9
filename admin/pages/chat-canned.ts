/**
 * Canned replies in the desk's reply box (docs/protocol.md §35.4): `/code` alone names a reply,
 * taken in the customer's language when there is one, else in another language; `/co` lists the
 * codes that begin so. Pure.
 */
import type { CannedReply } from '../../contract/api/chat.js';

/** Each code's reply: the customer's language first, another language's only for a code it lacks. */
export function repliesFor(canned: readonly CannedReply[], language: string): Map<string, CannedReply> {
  const found = new Map<string, CannedReply>();
  for (const reply of canned)
    if (!found.has(reply.code) || reply.language === language) found.set(reply.code, reply);
  return found;
}

/** What the reply box holds: a whole `/code` naming a reply, or the replies whose code begins as typed. */
export function cannedFor(
  text: string,
  replies: ReadonlyMap<string, CannedReply>,
): { exact: CannedReply | undefined; matching: CannedReply[] } {
  const code = /^\/([a-z0-9][a-z0-9_-]{0,31})$/.exec(text.trim())?.[1];
  const exact = code === undefined ? undefined : replies.get(code);
  const matching =
    text.startsWith('/') && exact === undefined
      ? [...replies.values()].filter((reply) => reply.code.startsWith(text.slice(1).trim())).slice(0, 5)
      : [];
  return { exact, matching };
}
