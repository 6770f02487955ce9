/**
 * The admin routes every operators' catalogue has (services/catalogue.ts: hosting products,
 * mining machines): list, add, update and disable under one path, for finance operators; each
 * change is audited by the catalogue.
 */
import type { z } from 'zod';
import { noParamsSchema } from '../../contract/schema.js';
import type { RequestContext } from '../core/context.js';
import { FINANCE, type Define } from './route-list.js';

/** A catalogue's operator methods, as the routes call them. */
export interface CatalogueMethods<Add, Update, Admin> {
  list(ctx: RequestContext): Promise<{ items: Admin[] }>;
  add(ctx: RequestContext, params: Add): Promise<Admin>;
  update(ctx: RequestContext, params: Update): Promise<Admin>;
  disable(ctx: RequestContext, params: { id: string }): Promise<Admin>;
}

/** One catalogue's routes: the path they start with, their schemas and their summaries. */
export interface CatalogueRoutes<Add, Update, Admin> {
  /** `/api/admin/machine`: the routes are `<base>/list`, `/add`, `/update` and `/disable`. */
  base: string;
  listData: z.ZodType<unknown, { items: Admin[] }>;
  itemData: z.ZodType<unknown, Admin>;
  addParams: z.ZodType<Add>;
  updateParams: z.ZodType<Update>;
  idParams: z.ZodType<{ id: string }>;
  summaries: { list: string; add: string; update: string; disable: string };
}

/** Declares a catalogue's list, add, update and disable routes. */
export function defineCatalogueRoutes<Add, Update, Admin>(
  define: Define,
  catalogue: CatalogueMethods<Add, Update, Admin>,
  routes: CatalogueRoutes<Add, Update, Admin>,
): void {
  const { base, itemData, summaries } = routes;
  define({
    path: `${base}/list`,
    kind: 'read',
    access: FINANCE,
    params: noParamsSchema,
    data: routes.listData,
    summary: summaries.list,
    handle: (ctx) => catalogue.list(ctx),
  });
  const change = <P>(
    verb: 'add' | 'update' | 'disable',
    params: z.ZodType<P>,
    handle: (ctx: RequestContext, params: P) => Promise<Admin>,
  ) =>
    define({
      path: `${base}/${verb}`,
      kind: 'command',
      access: FINANCE,
      params,
      data: itemData,
      summary: summaries[verb],
      success: 'server.saved',
      handle,
    });
  change('add', routes.addParams, (ctx, params) => catalogue.add(ctx, params));
  change('update', routes.updateParams, (ctx, params) => catalogue.update(ctx, params));
  change('disable', routes.idParams, (ctx, params) => catalogue.disable(ctx, params));
}
