/**
 * The operator console's entry (admin.html): its own build, never loaded by the customer app.
 * zod must be told to parse jitless before any schema exists (CSP, no eval), and a bundler may
 * run a static import's chunk before this module's own code: the rest loads after, dynamically.
 */
import '../contract/zod-jitless.js';

void import('./start.js');
