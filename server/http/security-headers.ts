/**
 * Security headers on every answer: pages, static files, the service worker, API answers and
 * errors alike, from helmet's middleware. Coffer sets no cookies: the token travels
 * in the `Authorization` header only.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';

/** One year, as HSTS preload lists ask. */
const HSTS_MAX_AGE_SECONDS = 31_536_000;

/**
 * The app's policy, as the built app needs it in Chromium (tests/e2e/served-config.test.ts):
 * scripts, workers, the service worker and every request from this origin only; images also as
 * `data:` (QR codes are SVG and PNG data URLs; the share poster's `blob:` is a download, which
 * img-src does not govern); styles from this origin's sheets only (React and antd-mobile set
 * styles through the CSSOM, which a policy does not block; the boot screen's rule lives in
 * src/styles.css for this); no plugins, no framing, no `<base>`.
 */
export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'worker-src': ["'self'"],
  'manifest-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
} as const;

/**
 * The same policy with one more source for one directive: elements carrying `nonce`. The console
 * (admin.html) gets it for `<style>` tags, with a fresh nonce per answer, because antd writes its
 * styles into `<style>` tags at run time and marks each with the page's nonce; a first visit's page
 * for its one inline `<script>`, the gate of the drawn login page (contract/first-page.ts).
 */
export function policyWithNonce(nonce: string, directive: 'style-src' | 'script-src'): string {
  return Object.entries(CONTENT_SECURITY_POLICY)
    .map(([name, sources]) =>
      [name, ...sources, ...(name === directive ? [`'nonce-${nonce}'`] : [])].join(' '),
    )
    .join(';');
}

/** Helmet's middleware, built once: every header but HSTS, which depends on the request. */
const helmetHeaders = helmet({
  contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  strictTransportSecurity: false,
  // The API has no cross-origin callers in a browser; native clients ignore these.
  crossOriginResourcePolicy: { policy: 'same-origin' },
  crossOriginOpenerPolicy: { policy: 'same-origin' },
});

/**
 * Puts the headers on `reply`. HSTS goes only to a request that came over TLS: a TLS socket,
 * or `X-Forwarded-Proto: https` from a proxy that `COFFER_TRUST_PROXY` trusts (Fastify's
 * `request.protocol`); over plain HTTP it would pin a browser to an origin without TLS.
 */
export function setSecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  helmetHeaders(request.raw, reply.raw, (error?: unknown) => {
    if (error) throw error;
  });
  if (request.protocol === 'https')
    reply.header('strict-transport-security', `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`);
}

/**
 * Sets the headers on every answer from the first hook on, so even a rate-limited or refused
 * request carries them; register before every other plugin. Errors the router raises before
 * any hook (a malformed URL) call `setSecurityHeaders` from the framework error handler.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    setSecurityHeaders(request, reply);
    done();
  });
}
