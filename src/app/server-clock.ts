/**
 * The server's time as this device last learned it. A phone's clock may be wrong by minutes or
 * days; where a page compares the server's times (a method's cooldown, a lock's end) with "now",
 * it uses `serverNow()`: the device's clock moved by the offset of the last server answer that
 * carried its time.
 */
let offsetMs = 0;

/** Records the server's time of an answer received just now. */
export function noteServerTime(serverTime: string): void {
  const at = Date.parse(serverTime);
  if (!Number.isNaN(at)) offsetMs = at - Date.now();
}

/** Milliseconds since the epoch on the server's clock, as best known. */
export function serverNow(): number {
  return Date.now() + offsetMs;
}
