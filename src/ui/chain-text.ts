/** How a chain's long strings read on a phone's line. Pure. */

/**
 * A transaction hash short enough for a phone's line: its first `head` and last `tail`
 * characters around an ellipsis ("0x5c50…e8d3a1"); a hash that short already is kept whole.
 */
export function shortHash(hash: string, head = 6, tail = 6): string {
  const start = hash.startsWith('0x') ? head + 2 : head;
  if (hash.length <= start + tail + 1) return hash;
  return `${hash.slice(0, start)}…${hash.slice(-tail)}`;
}
