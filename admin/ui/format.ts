/** How the console shows times: the operator's own locale and time zone, to the second. */
export function formatTime(iso: string | null): string {
  if (!iso) return '';
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : at.toLocaleString(undefined, { hour12: false });
}
