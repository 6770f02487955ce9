/**
 * Imported first by the browser's entry points (src/main.tsx, worker/index.ts, admin/main.tsx): zod 4
 * compiles object parsers with `new Function` unless told not to, probing for it once; under the
 * app's Content-Security-Policy (no 'unsafe-eval', server/http/security-headers.ts) that probe
 * fails and is reported as a violation. Jitless parsing is what runs under the policy anyway.
 *
 * zod keeps its configuration on `globalThis.__zod_globalConfig`, which it creates on loading only
 * when it is not there yet (so that every copy of zod shares one). Setting it here, before zod
 * loads, makes zod parse jitless wherever it loads later (the app's lazy pages), without this entry
 * point loading zod itself: the app's first page carries no validation library.
 * tests/unit/zod-jitless.test.ts holds zod to this.
 */
const shared = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
(shared.__zod_globalConfig ??= {}).jitless = true;
