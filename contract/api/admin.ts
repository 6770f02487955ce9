/** The operator API under /api/admin (CONTRACT.md: operators, roles, audit). */
import { z } from 'zod';
import {
  emailSchema,
  idCursorSchema,
  isoTimeSchema,
  pageOf,
  pageParamsSchema,
  passwordSchema,
} from '../schema.js';

export const OPERATOR_ROLES = ['superadmin', 'finance', 'compliance', 'support', 'content'] as const;
export const operatorRoleSchema = z.enum(OPERATOR_ROLES, { error: 'server.field_invalid' });
export type OperatorRole = z.infer<typeof operatorRoleSchema>;

export const adminLoginParamsSchema = z.object({ email: emailSchema, password: passwordSchema });
export const adminSessionDataSchema = z.object({
  token: z.string(),
  expiresAt: isoTimeSchema,
  operatorId: z.string(),
  role: operatorRoleSchema,
});

export const operatorSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: operatorRoleSchema,
  createdAt: isoTimeSchema,
});
export type Operator = z.infer<typeof operatorSchema>;

export const createOperatorParamsSchema = z.object({
  email: emailSchema,
  role: operatorRoleSchema,
  password: passwordSchema.optional(),
});
export type CreateOperatorParams = z.infer<typeof createOperatorParamsSchema>;
export const createdOperatorDataSchema = operatorSchema.extend({
  /** Present only when the server generated the password: shown once. */
  initialPassword: z.string().nullable(),
});

export const inviteDataSchema = z.object({ code: z.string(), createdAt: isoTimeSchema });

export const auditEntrySchema = z.object({
  id: z.string(),
  actor: z.string(),
  action: z.string(),
  target: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
  at: isoTimeSchema,
});
/** The audit log pages by entry id: `nextCursor` is the last id of the page. */
export const auditListParamsSchema = pageParamsSchema.extend({ cursor: idCursorSchema.optional() });
export const auditListDataSchema = pageOf(auditEntrySchema);
export const operatorListDataSchema = z.object({ items: z.array(operatorSchema) });
