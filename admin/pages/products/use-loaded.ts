/** A section's data read once on show and again on `reload` (lists that do not page). */
import { useCallback, useEffect, useState } from 'react';
import type { z } from 'zod';
import { useConsole } from '../../app/context.js';
import { useAction } from '../../ui/use-action.js';

export function useLoaded<T>(path: string, schema: z.ZodType<T>) {
  const { api } = useConsole();
  const run = useAction();
  const [data, setData] = useState<T | null>(null);
  const reload = useCallback(async () => {
    const read = await run(() => api.read(path, {}, schema));
    if (read) setData(read);
  }, [api, path, run, schema]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, setData, reload };
}
