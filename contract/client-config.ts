/**
 * What the web app must know about the server that serves it, read at run time:
 * `GET /client-config.json` on the app's own origin (docs/protocol.md, last section). A build
 * carries none of it, so one `dist/` works behind any `COFFER_GATEWAY_SEGMENT`.
 */
import { z } from 'zod';

/** Fixed: the one path a client must know in advance. */
export const CLIENT_CONFIG_PATH = '/client-config.json';

const apiPathSchema = z.string().regex(/^\/api\/[A-Za-z0-9_-]{1,64}$/, 'an /api/{segment} path');

export const clientConfigSchema = z.object({
  /** The transport the app speaks: the envelope gateway (spec Reading A) or plain JSON. */
  transport: z.enum(['envelope', 'plain']),
  /** The envelope gateway, `/api/{COFFER_GATEWAY_SEGMENT}`. */
  gatewayPath: apiPathSchema,
  /**
   * The upload prefix, `/api/{COFFER_UPLOAD_SEGMENT}`, before `/v1/common/up-img`. The web app
   * itself uploads to the plain `/api/v1/common/up-img`, which every server serves.
   */
  uploadPath: apiPathSchema,
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;
