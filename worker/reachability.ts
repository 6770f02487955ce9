/**
 * Whether the server answers at all. A flaky mobile network seldom tells the browser it is
 * offline (`navigator.onLine` stays true), so the worker tells the windows of every tab, on a
 * BroadcastChannel, each time its calls start or stop getting answers; the offline banner
 * listens (src/ui/OfflineBanner.tsx).
 */
import { LINK_CHANNEL, type LinkMessage } from '../contract/link.js';
import type { Send } from './transport.js';

/**
 * Wraps `send`: `report` hears false when a call gets no answer at all (network failure,
 * timeout) and true when one gets any HTTP answer, each time the state changes.
 */
export function withReachability(send: Send, report: (reachable: boolean) => void): Send {
  let last: boolean | null = null;
  return async (call) => {
    const outcome = await send(call);
    const reachable = !(outcome.kind === 'transport' && outcome.status === null);
    if (reachable !== last) {
      last = reachable;
      report(reachable);
    }
    return outcome;
  };
}

/** Posts the state to every window of this origin (nothing where BroadcastChannel is missing). */
export function broadcastReachability(): (reachable: boolean) => void {
  if (typeof BroadcastChannel === 'undefined') return () => undefined;
  const channel = new BroadcastChannel(LINK_CHANNEL);
  return (reachable) => channel.postMessage({ reachable } satisfies LinkMessage);
}
