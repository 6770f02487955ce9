/** A line of short parts ("BEP20 · 0x2c75…5c23"): the empty or missing ones left out. Pure. */
export function partsLine(parts: readonly (string | null | undefined)[]): string {
  return parts.filter((part): part is string => part != null && part !== '').join(' · ');
}
