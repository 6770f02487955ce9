/**
 * The operator console's page (admin.html at /admin): what the server and the console agree on
 * about the HTML itself. The server puts a fresh nonce into the page for every answer, where the
 * placeholder stands, and allows `<style>` tags carrying it (antd writes its styles at run time).
 */

/** The `<meta name=...>` whose `content` carries the answer's style nonce. */
export const CONSOLE_NONCE_META = 'coffer-style-nonce';
/** What the built admin.html holds in that meta tag until the server fills it. */
export const CONSOLE_NONCE_PLACEHOLDER = '__COFFER_STYLE_NONCE__';
/** Where the console lives (its deep links are `/admin/...`). */
export const CONSOLE_BASE_PATH = '/admin';
