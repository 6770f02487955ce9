/**
 * contract/zod-jitless.ts configures zod before zod loads, through the global object zod shares
 * its configuration on: zod, loaded after it, must parse jitless (the CSP forbids `new Function`).
 */
import { expect, test } from 'vitest';

test('zod loaded after contract/zod-jitless.ts runs jitless: it never calls new Function', async () => {
  await import('../../contract/zod-jitless.js');
  const { z } = await import('zod');
  expect(z.config().jitless).toBe(true);
  const original = globalThis.Function;
  let compiled = 0;
  globalThis.Function = new Proxy(original, {
    construct(target, args: unknown[]) {
      compiled += 1;
      return Reflect.construct(target, args) as object;
    },
  });
  try {
    const schema = z.object({ id: z.string(), amount: z.number() });
    for (let i = 0; i < 3; i += 1)
      expect(schema.parse({ id: String(i), amount: i })).toEqual({ id: String(i), amount: i });
  } finally {
    globalThis.Function = original;
  }
  expect(compiled).toBe(0);
});
