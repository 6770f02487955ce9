/**
 * A list read page by page from a route that pages by cursor (`{items, nextCursor}`): the
 * first page on load and whenever `params` change, the next on `loadMore`.
 */
import { useCallback, useEffect, useState } from 'react';
import type { z } from 'zod';
import { useConsole } from '../app/context.js';
import { useAction } from './use-action.js';

interface PageData<T> {
  items: T[];
  nextCursor: string | null;
}

/** What `usePagedList` gives: the rows read so far and the reads of the next and first pages. */
export interface PagedList<T> {
  items: T[];
  loading: boolean;
  hasMore: boolean;
  loadMore(): Promise<void>;
  reload(): Promise<void>;
}

export function usePagedList<T>(
  path: string,
  params: Record<string, unknown>,
  schema: z.ZodType<PageData<T>>,
): PagedList<T> {
  const { api } = useConsole();
  const run = useAction();
  const [items, setItems] = useState<T[]>([]);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const key = JSON.stringify(params);

  const load = useCallback(
    async (cursor: string | null) => {
      setLoading(true);
      const query = JSON.parse(key) as Record<string, unknown>; // the params, as serialised just above
      const page = await run(() => api.read(path, cursor ? { ...query, cursor } : query, schema));
      setLoading(false);
      if (!page) return;
      setItems((before) => (cursor ? [...before, ...page.items] : page.items));
      setNextCursor(page.nextCursor);
    },
    [api, key, path, run, schema],
  );

  useEffect(() => {
    void load(null);
  }, [load]);

  return {
    items,
    loading,
    hasMore: nextCursor !== null,
    loadMore: () => load(nextCursor),
    reload: () => load(null),
  };
}
