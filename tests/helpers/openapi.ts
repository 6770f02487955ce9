/**
 * The API's routes as its OpenAPI document (`GET /api/docs/openapi.json`) declares them, for the
 * sweeps over every route: `npm run fuzz`, the hostile-input test and the authorization matrix.
 * A route that is added is swept without anyone listing it.
 */
import { z } from 'zod';

export interface JsonSchema {
  type?: string | string[] | undefined;
  enum?: unknown[] | undefined;
  anyOf?: JsonSchema[] | undefined;
  oneOf?: JsonSchema[] | undefined;
  items?: JsonSchema | undefined;
  properties?: Record<string, JsonSchema> | undefined;
}
const jsonSchemaSchema: z.ZodType<JsonSchema> = z.lazy(() =>
  z.object({
    type: z.union([z.string(), z.array(z.string())]).optional(),
    enum: z.array(z.unknown()).optional(),
    anyOf: z.array(jsonSchemaSchema).optional(),
    oneOf: z.array(jsonSchemaSchema).optional(),
    items: jsonSchemaSchema.optional(),
    properties: z.record(z.string(), jsonSchemaSchema).optional(),
  }),
);
const operationSchema = z.object({
  security: z.array(z.unknown()).optional(),
  requestBody: z
    .object({ content: z.record(z.string(), z.object({ schema: jsonSchemaSchema.optional() })) })
    .optional(),
  parameters: z
    .array(z.object({ name: z.string(), in: z.string(), schema: jsonSchemaSchema.optional() }))
    .optional(),
});
const documentSchema = z.object({ paths: z.record(z.string(), z.record(z.string(), z.unknown())) });

export interface ApiField {
  name: string;
  /** Where the document declares it: a body property, or a query or path parameter. */
  in: 'body' | 'query' | 'path';
  schema: JsonSchema | undefined;
}

export interface ApiRoute {
  /** As the document names it (`{id}` for a path parameter). */
  path: string;
  methods: Array<'GET' | 'POST'>;
  /** The fields of all its methods, one per name (the last declaration wins), in document order. */
  fields: ApiField[];
  /** Who may call it: anyone (no security), operators (/api/admin/), or customers. */
  access: 'public' | 'user' | 'operator';
  /** POST only: a command. */
  command: boolean;
}

/** Every GET or POST route under /api/v1/ and /api/admin/ in the document, with its fields. */
export function apiRoutesOf(document: unknown): ApiRoute[] {
  const routes: ApiRoute[] = [];
  for (const [path, item] of Object.entries(documentSchema.parse(document).paths)) {
    if (!path.startsWith('/api/v1/') && !path.startsWith('/api/admin/')) continue;
    const methods: Array<'GET' | 'POST'> = [];
    const fields = new Map<string, ApiField>();
    let secured = false;
    for (const [method, raw] of Object.entries(item)) {
      const upper = method.toUpperCase();
      if (upper !== 'GET' && upper !== 'POST') continue;
      methods.push(upper);
      const operation = operationSchema.parse(raw);
      secured ||= (operation.security?.length ?? 0) > 0;
      for (const media of Object.values(operation.requestBody?.content ?? {}))
        for (const [name, schema] of Object.entries(media.schema?.properties ?? {}))
          fields.set(name, { name, in: 'body', schema });
      for (const parameter of operation.parameters ?? [])
        if (parameter.in === 'query' || parameter.in === 'path')
          fields.set(parameter.name, { name: parameter.name, in: parameter.in, schema: parameter.schema });
    }
    if (methods.length === 0) continue;
    routes.push({
      path,
      methods,
      fields: [...fields.values()],
      access: !secured ? 'public' : path.startsWith('/api/admin/') ? 'operator' : 'user',
      command: !methods.includes('GET'),
    });
  }
  return routes;
}
