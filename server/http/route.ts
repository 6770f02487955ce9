/**
 * One way to declare a route: its path, kind (read: GET and POST; command: POST with an
 * Idempotency-Key), who may call it, its params and data schemas (which also feed OpenAPI),
 * and a one-line handler that hands over to a service.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { OperatorRole } from '../../contract/api/admin.js';
import { BodyCode } from '../../contract/codes.js';
import { answerOf } from '../../contract/schema.js';
import type { Locale, Translator } from '../i18n/i18n.js';
import { localeFromHeader } from '../i18n/i18n.js';
import type { SessionService } from '../services/session.service.js';
import type { ReadRouting } from '../db/read-routing.js';
import { OperatorService } from '../services/operator.service.js';
import { BusinessError, notLoggedIn } from '../core/errors.js';
import { renderAnswer } from './answer.js';
import type { Caller, RequestContext } from '../core/context.js';
import { parseParams } from '../core/params.js';
import { USER_AGENT_MAX_LENGTH } from '../security/device.js';
import { idempotencyKeyOf, mergeParams, requestHashOf } from './params.js';

/** Who may call: anyone, a customer, a customer or any operator, or operators with one of `roles`. */
export type Access = 'public' | 'user' | 'signed-in' | OperatorAccess;

/**
 * Operators with one of `roles`, once set up (password changed, authenticator bound) unless
 * `duringSetup`; with `stepUp`, only within STEP_UP_SECONDS of the session's last step-up.
 */
export interface OperatorAccess {
  roles: readonly OperatorRole[];
  stepUp?: true;
  duringSetup?: true;
}

export interface RouteDefinition<P extends z.ZodType, D extends z.ZodType> {
  path: string;
  kind: 'read' | 'command';
  access: Access;
  params: P;
  data: D;
  summary: string;
  /** A customer's money command: refused (403, reason `frozen`) while an operator has frozen the user. */
  movesMoney?: true;
  /** Locale key of the success message; `server.ok` when omitted. */
  success?: string;
  handle(ctx: RequestContext, params: z.output<P>): Promise<z.input<D>>;
}

export interface RouteDeps {
  translator: Translator;
  sessions: SessionService;
  /** With a read replica: notes each command's write position before its answer leaves (read-your-writes). */
  reads?: ReadRouting;
}

declare module 'fastify' {
  interface FastifyRequest {
    coffer: RequestContext | null;
  }
}

/** Builds the request's context: language, client address, request id. The caller comes later. */
export function contextOf(
  request: FastifyRequest,
  translator: Translator,
  success = 'server.ok',
): RequestContext {
  const locale: Locale = localeFromHeader(request.headers['lang']);
  const ctx: RequestContext = {
    locale,
    ip: request.ip,
    userAgent: request.headers['user-agent']?.slice(0, USER_AGENT_MAX_LENGTH),
    requestId: request.id,
    caller: { kind: 'anonymous' },
    idempotency: null,
    answerText: undefined,
    renderSuccess: (data) => renderAnswer(translator, locale, BodyCode.ok, success, {}, data),
    renderError: (error) =>
      renderAnswer(translator, locale, error.code, error.messageKey, error.vars, error.data),
  };
  request.coffer = ctx;
  return ctx;
}

/** A 403 whose `data.reason` tells the client what to do (the console sets up, steps up; the app explains). */
const refused = (reason: 'setup_required' | 'step_up_required' | 'frozen', key: string) =>
  new BusinessError(BodyCode.forbidden, key, {}, { reason });

/** Resolves the caller for a route's access rule; throws 401 or 403. */
export async function authorize(
  sessions: SessionService,
  request: FastifyRequest,
  def: Pick<RouteDefinition<z.ZodType, z.ZodType>, 'access' | 'movesMoney'>,
): Promise<Caller> {
  const { access } = def;
  const caller = await sessions.authenticate(request.headers.authorization);
  if (access === 'public') return caller ?? { kind: 'anonymous' };
  if (!caller || caller.kind === 'anonymous') throw notLoggedIn();
  if (def.movesMoney && caller.kind === 'user' && caller.frozen) {
    throw refused('frozen', 'server.account_frozen');
  }
  if (access === 'signed-in') return caller;
  if (access === 'user') {
    if (caller.kind !== 'user') throw notLoggedIn();
    return caller;
  }
  if (caller.kind !== 'operator') throw notLoggedIn();
  if (!OperatorService.allowed(caller.role, access.roles)) {
    throw new BusinessError(BodyCode.forbidden, 'server.role_not_allowed');
  }
  if (caller.setupRequired && !access.duringSetup) throw refused('setup_required', 'server.setup_required');
  if (access.stepUp && !sessions.isElevated(caller.elevatedUntil)) {
    throw refused('step_up_required', 'server.step_up_required');
  }
  return caller;
}

export function sendAnswer(reply: FastifyReply, text: string): FastifyReply {
  return reply.code(200).type('application/json; charset=utf-8').send(text);
}

/** Registers a route (GET and POST for reads, POST for commands) under `def.path`. */
export function defineRoute<P extends z.ZodType, D extends z.ZodType>(
  app: FastifyInstance,
  deps: RouteDeps,
  def: RouteDefinition<P, D>,
): void {
  const tag = def.path.split('/')[3] ?? 'api';
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const ctx = contextOf(request, deps.translator, def.success);
    ctx.caller = await authorize(deps.sessions, request, def);
    const raw = mergeParams(request.query, request.method === 'GET' ? undefined : request.body);
    const params = parseParams(def.params, raw);
    if (def.kind === 'command') {
      const key = idempotencyKeyOf(request.headers['idempotency-key']);
      ctx.idempotency = key === null ? null : { key, requestHash: requestHashOf(def.path, raw) };
    }
    const data = await def.handle(ctx, params);
    if (def.kind === 'command' && deps.reads?.replicated) await deps.reads.noteCommand(ctx.caller, data);
    return sendAnswer(reply, ctx.answerText ?? ctx.renderSuccess(data));
  };
  const base = { summary: def.summary, tags: [tag], response: { 200: answerOf(def.data) } };
  const security = def.access === 'public' ? {} : { security: [{ bearer: [] }] };
  app.post(def.path, { schema: { ...base, ...security, body: def.params } }, handler);
  if (def.kind === 'read')
    app.get(def.path, { schema: { ...base, ...security, querystring: def.params } }, handler);
}
