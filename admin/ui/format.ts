/** How the console shows times: the operator's own locale and time zone, to the second. */
export function formatTime(iso: string | null): string {
  if (!iso) return '';
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : at.toLocaleString(undefined, { hour12: false });
}

/** An amount as the server gives it (a decimal string, already out of minor units) with its asset. */
export function formatAmount(amount: string, asset: string): string {
  return `${amount} ${asset}`;
}
