/**
 * The composition root: opens the database, builds services, registers plugins (before app
 * routes), routes, the envelope gateway, uploads, docs and health. Used by `npm start`, the
 * admin CLI, the tests and the benchmarks alike.
 */
import { projectPath } from './paths.js';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import { jsonSchemaTransform, serializerCompiler } from 'fastify-type-provider-zod';
import { APP_VERSION, UPLOAD_MAX_BYTES } from '../contract/constants.js';
import { clockStartingAt, systemClock, type Clock } from './clock.js';
import { platformLimitsOf, type Config } from './config.js';
import { SecretBox, devSecretKey } from './security/secret-box.js';
import { IdentityService } from './services/identity.service.js';
import { ProofOfReservesService } from './services/proof-of-reserves.service.js';
import { reservesSnapshotJob } from './jobs/reserves-snapshot.job.js';
import { SecurityService } from './services/security.service.js';
import type { ServiceCore } from './services/service-core.js';
import { SecurityCentreService } from './services/security-centre.service.js';
import { PasskeyService, relyingPartyOf } from './services/passkey.service.js';
import { PushService } from './services/push.service.js';
import { devVapidKeys } from './security/vapid.js';
import { Letters } from './mail/letters.js';
import { UserMail } from './services/user-mail.js';
import { CommandRunner } from './core/command-runner.js';
import { openDatabase, type OpenDatabase } from './db/database.js';
import { redisWritePositions } from './db/read-routing.js';
import { answerFrameworkError, installErrorHandling } from './http/errors.js';
import { BusinessError } from './core/errors.js';
import { INNER_CALL_HEADER, newInnerSecret, registerGateway } from './http/gateway.js';
import { loadTranslator } from './i18n/i18n.js';
import { registerStatic } from './http/static.js';
import { registerSecurityHeaders, setSecurityHeaders } from './http/security-headers.js';
import { registerClientConfig } from './http/client-config.js';
import { purgeJob } from './jobs/purge.job.js';
import { Scheduler } from './jobs/scheduler.js';
import { devMailbox, smtpMailer, type Mailer } from './mail/mailer.js';
import { registerRoutes } from './routes/index.js';
import type { AppServices } from './services/container.js';
import { registerUploadRoutes } from './routes/upload.routes.js';
import { MemoryCounterStore, redisCounterStore, type CounterStore } from './security/counters.js';
import { Limits } from './security/limits.js';
import { AuthService } from './services/auth.service.js';
import { CodeService } from './services/codes.service.js';
import { CommonService } from './services/common.service.js';
import { servedHotVersionCode } from './client-build.js';
import { OperatorService } from './services/operator.service.js';
import { OperatorAuthService } from './services/operator-auth.service.js';
import { CustomerAdminService } from './services/customer-admin.service.js';
import { DashboardService } from './services/dashboard.service.js';
import { chainReserves } from './services/reserves.js';
import { QuotesFeed } from './services/quotes-feed.js';
import { SessionService } from './services/session.service.js';
import { redisEvictionChannel } from './security/session-evictions.js';
import { UploadService } from './services/upload.service.js';
import { UserService } from './services/user.service.js';
import { ContentService } from './services/content.service.js';
import { FeedbackService } from './services/feedback.service.js';
import { SyncService } from './services/sync.service.js';
import { syncCollections } from './services/collections.js';
import { AccountService } from './services/account.service.js';
import { LedgerAdminService } from './services/ledger-admin.service.js';
import { ledgerCheckJob } from './jobs/ledger-check.job.js';
import path from 'node:path';
import { setUpChains } from './chains/setup.js';
import type { DevnetInfo } from './chains/devnet.js';
import { RechargeService } from './services/recharge.service.js';
import { DepositWatcher } from './services/deposit-watcher.js';
import { PollLoop } from './jobs/poll-loop.js';
import { WithdrawalSender } from './services/withdrawal-sender.js';
import { WithdrawService } from './services/withdraw.service.js';
import { createEvmUsdtSender } from './chains/evm-sender.js';
import { SweepService } from './services/sweep.service.js';
import { DeliveryService } from './services/delivery.service.js';
import { DividendService } from './services/dividend.service.js';
import { dividendExpiryJob } from './jobs/dividend-expiry.job.js';
import { HostingAccrualService } from './services/hosting/accrual.service.js';
import { hostingCatalogue } from './services/hosting/catalogue.service.js';
import { HostingOrderService } from './services/hosting/orders.service.js';
import { IncomeService } from './services/income.service.js';
import { hostingAccrualJob } from './jobs/hosting-accrual.job.js';
import { MachineCatalogueService } from './services/machine/catalogue.service.js';
import { MachineOrderService } from './services/machine/orders.service.js';
import { MachineOutputService } from './services/machine/output.service.js';
import { machineOutputJob } from './jobs/machine-output.job.js';
import { TeamService } from './services/team.service.js';
import { teamIncomeJob } from './jobs/team-income.job.js';
import { PaymentService } from './services/payment.service.js';
import { CalendarService } from './services/calendar.service.js';
import { ExchangeService } from './services/exchange.service.js';
import { OtcService } from './services/otc.service.js';
import { ChatService } from './services/chat.service.js';
import { ChatHub } from './services/chat-hub.js';
import { memoryChatBus, redisChatBus } from './services/chat-bus.js';
import { registerChatSockets, type ChatSocketOptions } from './http/chat-socket.js';
import { chatUnreadMailJob } from './jobs/chat-unread-mail.job.js';

/** Bodies of JSON and form calls; uploads have their own limit. A 200 KB password never reaches a hash. */
export const BODY_LIMIT_BYTES = 64 * 1024;

export interface ServerOptions {
  config: Config;
  /** Tests pass a ManualClock; otherwise COFFER_NOW or the system clock. */
  clock?: Clock;
  /** Tests pass a capturing mailer; otherwise SMTP_URL or the dev mailbox. */
  mailer?: Mailer;
  /** Tests pass an in-memory PGlite or a PostgreSQL test database. */
  database?: OpenDatabase;
  logger?: boolean;
  /** The built app; tests point it elsewhere. Defaults to the repository's dist/. */
  distDir?: string;
  /** The local EVM devnet `npm start` started, when it did: BEP20 is watched on it. */
  devnet?: DevnetInfo;
  /** Tests shorten the chat sockets' heartbeat and auth wait. */
  chatSockets?: ChatSocketOptions;
}

export interface CofferServer {
  app: FastifyInstance;
  config: Config;
  clock: Clock;
  database: OpenDatabase;
  services: AppServices;
  scheduler: Scheduler;
  /** Each chain's deposit watcher, when its node or API is configured. */
  watchers: DepositWatcher[];
  /** The send jobs of approved withdrawals (BEP20 when a node and a hot wallet are configured). */
  withdrawalSenders: WithdrawalSender[];
  /** The operator's sweep of deposit addresses to the hot wallet (CLI only). */
  sweeps: SweepService;
  mailer: Mailer;
  counters: CounterStore;
  /** The root invite code when this start created it (first start), else null. */
  rootInviteCreated: string | null;
  /** The first start's superadmin and one-time password, when this start made it; else null. */
  rootOperatorCreated: { email: string; password: string } | null;
  /** This instance's chat sockets (docs/protocol.md §35). */
  chatHub: ChatHub;
  close(): Promise<void>;
}

const publicDir = projectPath('public');
const distDir = projectPath('dist');

export async function createServer(options: ServerOptions): Promise<CofferServer> {
  const { config } = options;
  const clock = options.clock ?? (config.now ? clockStartingAt(config.now) : systemClock);
  const translator = loadTranslator();
  const app = Fastify({
    // Errors the router raises before any handler (a malformed URL) get the same answer shape.
    frameworkErrors: (error, request, reply) => {
      setSecurityHeaders(request, reply);
      answerFrameworkError(translator, error, request, reply);
    },
    logger: options.logger === false ? false : { level: config.logLevel },
    bodyLimit: BODY_LIMIT_BYTES,
    logController: new LogController({
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
    requestIdHeader: false,
    // Only the proxies COFFER_TRUST_PROXY names may speak for the client (its address, https).
    trustProxy: config.trustProxy ?? false,
    genReqId: () => `req-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
  });
  const log = (message: string, error?: unknown) => app.log.error({ err: error }, message);

  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      readUrl: config.databaseReadUrl,
      isReadAnswer: (error) => error instanceof BusinessError,
      dataDir: config.dataDir,
    }));
  const counters = config.redisUrl
    ? await redisCounterStore(config.redisUrl, config.redisPrefix)
    : new MemoryCounterStore(clock);
  const mailer =
    options.mailer ??
    (config.smtpUrl
      ? smtpMailer(config.smtpUrl, config.mailFrom)
      : devMailbox(path.join(config.dataDir, 'mailbox'), config.mailFrom, (line) => app.log.info(line)));
  const db = database.db;
  // Customers' pure reads (pulls, record lists) may run on the replica: database.reads decides.
  const { reads } = database;
  if (reads.replicated && config.redisUrl)
    reads.shareWritePositions(await redisWritePositions(config.redisUrl, `${config.redisPrefix}lsn:`));
  const commands = new CommandRunner(db, clock);
  // What every service is built with (services/service-core.ts).
  const core: ServiceCore = { db, commands, clock, logError: log };
  // Web push: the one way services tell a user something after commit (services/user-notifier.ts).
  const push = new PushService(core, translator, {
    vapid: config.vapidKeys ?? devVapidKeys(config.dataDir, (line) => app.log.warn(line)),
    subject: config.vapidSubject,
    production: config.production,
    log: (message, error) => app.log.warn({ err: error }, message),
  });
  const limits = new Limits(counters);
  const sessions = new SessionService(db, clock);
  const { redisUrl } = config;
  if (redisUrl)
    await sessions.shareEvictions((onEvict) =>
      redisEvictionChannel(redisUrl, onEvict, `${config.redisPrefix}session-evictions`),
    );
  const secrets = new SecretBox(
    config.secretKey ?? devSecretKey(config.dataDir, (line) => app.log.warn(line)),
  );
  // Every e-mail: both parts, the recipient's language and anti-phishing code (mail/letters.ts).
  const letters = new Letters(mailer, translator);
  const codes = new CodeService(clock, letters, secrets, limits);
  const servedDist = options.distDir ?? distDir;
  const accounts = new AccountService(core, reads, sessions);
  const chains = setUpChains(config, options.devnet, (line) => app.log.warn(line));
  const recharge = new RechargeService(db, clock, chains, reads);
  const bep20 = chains.BEP20;
  const hotWalletKey = config.bep20HotWalletKey ?? options.devnet?.hotWalletKey;
  // Approved BEP20 withdrawals are sent by the send job when a node and a hot wallet are there;
  // others (TRC20, bank cards) are paid by an operator.
  const withdrawalSenders =
    bep20.url && hotWalletKey
      ? [
          new WithdrawalSender(
            db,
            clock,
            'BEP20',
            createEvmUsdtSender({
              rpcUrl: bep20.url,
              contract: bep20.info.contract,
              decimals: bep20.info.decimals,
              hotWalletKey,
            }),
            undefined,
            {},
            push,
          ),
        ]
      : [];
  const security = new SecurityService(core, codes, limits, secrets, config.scryptCost, sessions);
  const reservesReader = chainReserves(db, chains, hotWalletKey);
  const uploads = new UploadService(core, config.dataDir, secrets);
  const userMail = new UserMail(db, letters, secrets);
  const identity = new IdentityService(core, secrets, uploads, userMail, push);
  const securityCentre = new SecurityCentreService(core, sessions, security, codes, letters, secrets);
  const passkeys = new PasskeyService(core, security, limits, counters, relyingPartyOf(config.publicUrl));
  const chat = new ChatService(core, counters, userMail, config.timezone, push);
  const chatBus = config.redisUrl
    ? await redisChatBus(config.redisUrl, `${config.redisPrefix}chat`)
    : memoryChatBus();
  const chatHub = new ChatHub(chatBus, chat);
  chat.publishTo((event) => chatHub.publish(event));
  const services: AppServices = {
    translator,
    chat,
    sessions,
    reads,
    auth: new AuthService(
      commands,
      clock,
      codes,
      sessions,
      limits,
      config.scryptCost,
      accounts,
      securityCentre,
      passkeys,
    ),
    user: new UserService(core, sessions),
    content: new ContentService(core),
    feedback: new FeedbackService(core, push),
    sync: new SyncService(reads, syncCollections),
    common: new CommonService(
      config.timezone,
      () => recharge.chainInfos(),
      () => servedHotVersionCode(servedDist),
    ),
    operators: new OperatorService(core, sessions, config.scryptCost),
    operatorAuth: new OperatorAuthService(core, sessions, limits, secrets, config.scryptCost),
    customerAdmin: new CustomerAdminService(core, sessions),
    dashboard: new DashboardService(db, clock, config.timezone, reservesReader),
    proofOfReserves: new ProofOfReservesService(core, reservesReader),
    uploads,
    identity,
    accounts,
    ledgerAdmin: new LedgerAdminService(core, config.adjustReviewAbove, platformLimitsOf(config)),
    recharge,
    payments: new PaymentService(core, config.newMethodCooldownHours),
    calendar: new CalendarService(core, config.timezone),
    security,
    securityCentre,
    passkeys,
    userMail,
    exchange: new ExchangeService(core, security, config.exchange, reads),
    otc: new OtcService(core, security, config.otc, reads),
    delivery: new DeliveryService(core),
    dividends: new DividendService(core, config.timezone, config.dividendClaimDays, reads),
    hosting: new HostingOrderService(core, security, { timezone: config.timezone }, reads),
    hostingCatalogue: hostingCatalogue(core),
    hostingAccrual: new HostingAccrualService(config.timezone),
    income: new IncomeService(core, translator, config.timezone, reads),
    team: new TeamService(core, config.timezone, config.teamManagementDepth),
    machines: new MachineOrderService(core, security, { timezone: config.timezone }, reads),
    machineCatalogue: new MachineCatalogueService(core),
    machineOutput: new MachineOutputService(config.timezone),
    withdraw: new WithdrawService(
      core,
      security,
      config.timezone,
      config.withdraw,
      new Map(withdrawalSenders.map((sender) => [sender.chain, sender.confirmations])),
      reads,
      push,
    ),
    push,
  };
  const watchers = Object.values(chains).flatMap(({ adapter, finality, startBlock }) =>
    adapter
      ? [
          new DepositWatcher(
            db,
            clock,
            { adapter, finality, startBlock, scanRange: config.chains.scanRange },
            push,
          ),
        ]
      : [],
  );
  const watcherLog = {
    info: (line: string) => app.log.info(line),
    warn: (line: string) => app.log.warn(line),
  };
  const sweeps = new SweepService(
    db,
    clock,
    chains,
    bep20.url
      ? {
          rpcUrl: bep20.url,
          contract: bep20.info.contract,
          hotWalletKey,
        }
      : undefined,
  );
  const loops = [...watchers, ...withdrawalSenders].map(
    (poller) => new PollLoop(poller, config.chains.pollSeconds, watcherLog),
  );
  if (config.quotesFeed) {
    const { url, symbols, pollSeconds } = config.quotesFeed;
    loops.push(new PollLoop(new QuotesFeed(services.content, url, symbols), pollSeconds, watcherLog));
  }
  const scheduler = new Scheduler(
    db,
    clock,
    [
      purgeJob,
      ledgerCheckJob((message) => app.log.error(message)),
      dividendExpiryJob(services.dividends),
      hostingAccrualJob(services.hostingAccrual, config.timezone),
      teamIncomeJob(services.team, config.timezone),
      machineOutputJob(services.machineOutput, config.timezone),
      reservesSnapshotJob(services.proofOfReserves, config.timezone),
      chatUnreadMailJob(services.chat),
    ],
    log,
  );

  // Plugins first, then the app's routes (fastify/demo's order); security headers before all.
  registerSecurityHeaders(app);
  app.setValidatorCompiler(() => (value) => ({ value })); // params are parsed by each route with its zod schema
  app.setSerializerCompiler(serializerCompiler);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    try {
      done(null, text.trim() === '' ? {} : JSON.parse(text));
    } catch {
      done(Object.assign(new Error('malformed JSON'), { statusCode: 400 }), undefined);
    }
  });
  await app.register(formbody, { bodyLimit: BODY_LIMIT_BYTES });
  await app.register(multipart, { limits: { fileSize: UPLOAD_MAX_BYTES, files: 1 } });
  const innerSecret = newInnerSecret();
  if (config.rateLimitPerMinute > 0) {
    const redis = config.redisUrl
      ? new (await import('ioredis')).Redis(config.redisUrl, { maxRetriesPerRequest: 2 })
      : undefined;
    await app.register(rateLimit, {
      global: true,
      max: config.rateLimitPerMinute,
      timeWindow: '1 minute',
      ...(redis ? { redis, nameSpace: 'coffer-rl:' } : {}),
      allowList: (request) =>
        !request.url.startsWith('/api/') || request.headers[INNER_CALL_HEADER] === innerSecret,
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        code: 'COFFER_RATE_LIMITED',
        ttl: context.ttl,
        message: 'rate limited',
      }),
    });
    if (redis) app.addHook('onClose', async () => void redis.disconnect());
  }
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Coffer API',
        version: APP_VERSION,
        description: 'Every answer is HTTP 200 with {code, message, data}; see docs/protocol.md.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  installErrorHandling(app, translator);

  await registerChatSockets(app, { sessions, hub: chatHub }, options.chatSockets);
  registerRoutes(app, services);
  registerUploadRoutes(app, services, config.uploadSegment);
  registerGateway(app, { segment: config.gatewaySegment, clock, counters, translator, innerSecret });
  app.get('/api/docs/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/api/health', { schema: { hide: true } }, async (_request, reply) => {
    const up = await database.ping();
    return reply
      .code(up ? 200 : 503)
      .send({ status: up ? 'ok' : 'unavailable', database: database.kind, version: APP_VERSION });
  });
  registerClientConfig(app, config);
  await registerStatic(app, servedDist, publicDir);

  const rootInviteCreated = await services.operators.ensureRootInvite(config.rootInvite);
  const rootOperatorCreated = await services.operators.ensureRootOperator(config.rootOperator);
  if (config.demo && (await services.content.seedDemo()))
    app.log.info('first start: demo news, notices and quotes added');
  if (config.jobs) {
    scheduler.start();
    for (const loop of loops) loop.start();
    for (const { chain, adapter, missing } of Object.values(chains)) {
      if (!adapter)
        app.log.warn(`${chain} deposits are not watched: ${missing} is not set (addresses still show)`);
    }
  }

  return {
    app,
    config,
    clock,
    database,
    services,
    scheduler,
    watchers,
    withdrawalSenders,
    sweeps,
    mailer,
    counters,
    rootInviteCreated,
    rootOperatorCreated,
    chatHub,
    async close() {
      scheduler.stop();
      await Promise.all(loops.map((loop) => loop.stop()));
      await app.close();
      await chatBus.close();
      await push.idle();
      await sessions.close();
      await counters.close();
      mailer.close();
      await database.close();
    },
  };
}
