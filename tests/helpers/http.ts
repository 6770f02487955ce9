/** Calls to a Coffer listening on loopback, over real HTTP (plain JSON transport). */
import { expect } from 'vitest';
import { z } from 'zod';

export const answerSchema = z.object({
  code: z.number(),
  message: z.string(),
  data: z.record(z.string(), z.unknown()).nullable(),
});
export type Answer = z.infer<typeof answerSchema>;

/** POSTs `params` as JSON to `base + uri`; the answer must be HTTP 200 with `{code, message, data}`. */
export async function call(
  base: string,
  uri: string,
  params: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(`${base}${uri}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(params),
    signal: AbortSignal.timeout(20_000),
  });
  expect(response.status).toBe(200);
  return answerSchema.parse(await response.json());
}
