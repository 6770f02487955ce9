/** Debian's Chromium, as the end-to-end tests and the benches drive it (playwright-core, Lighthouse). */

export const CHROMIUM = '/usr/bin/chromium';

/** GOTCHAS.md: without these the closed network floods Chromium with refused connections. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
