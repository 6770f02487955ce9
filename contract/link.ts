/**
 * The worker-to-windows message saying whether the server answers at all: the worker posts it on
 * the `coffer-link` BroadcastChannel each time its calls start or stop getting answers
 * (worker/reachability.ts); the offline banner of every tab listens (src/ui/OfflineBanner.tsx).
 * Pure: no import, so the first page may load it.
 */

/** The channel's name. */
export const LINK_CHANNEL = 'coffer-link';

/** What goes on the channel. */
export interface LinkMessage {
  reachable: boolean;
}

/** True when `data` is a LinkMessage (a message from another version may have another shape). Pure. */
export function isLinkMessage(data: unknown): data is LinkMessage {
  return (
    typeof data === 'object' && data !== null && 'reachable' in data && typeof data.reachable === 'boolean'
  );
}
