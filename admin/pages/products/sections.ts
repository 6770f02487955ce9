/** The products page's sections, in the order its section picker lists them. */
export const SECTIONS = [
  'settings',
  'hosting',
  'machines',
  'levels',
  'calendar',
  'dividends',
  'delivery',
  'airdrop',
  'tickets',
] as const;

export type Section = (typeof SECTIONS)[number];
