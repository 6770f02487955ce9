/**
 * Imported first by the browser's entry points (src/main.tsx, worker/index.ts, admin/main.tsx): zod 4 compiles
 * object parsers with `new Function` unless told not to, probing for it once; under the app's
 * Content-Security-Policy (no 'unsafe-eval', server/http/security-headers.ts) that probe fails
 * and is reported as a violation. Jitless parsing is what runs under the policy anyway.
 */
import { z } from 'zod';

z.config({ jitless: true });
