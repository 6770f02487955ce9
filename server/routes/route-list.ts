/**
 * What a route list is: a function that declares routes with the services it hands over to.
 * Its own module, below the table that registers every list (routes/index.ts), so no list
 * imports the table that imports it.
 */
import type { z } from 'zod';
import type { Translator } from '../i18n/i18n.js';
import type { RouteDefinition } from '../http/route.js';
import type { AuthService } from '../services/auth.service.js';
import type { CommonService } from '../services/common.service.js';
import type { OperatorService } from '../services/operators.service.js';
import type { SessionService } from '../services/sessions.service.js';
import type { UploadService } from '../services/uploads.service.js';
import type { UserService } from '../services/user.service.js';
import type { ContentService } from '../services/content.service.js';
import type { FeedbackService } from '../services/feedback.service.js';
import type { SyncService } from '../services/sync.service.js';
import type { AccountService } from '../services/account.service.js';
import type { LedgerAdminService } from '../services/ledger-admin.service.js';
import type { RechargeService } from '../services/recharge.service.js';
import type { PaymentService } from '../services/payment.service.js';
import type { CalendarService } from '../services/calendar.service.js';
import type { SecurityService } from '../services/security.service.js';
import type { ExchangeService } from '../services/exchange.service.js';
import type { OtcService } from '../services/otc.service.js';
import type { WithdrawService } from '../services/withdraw.service.js';
import type { DeliveryService } from '../services/delivery.service.js';
import type { DividendService } from '../services/dividend.service.js';
import type { HostingAccrualService } from '../services/hosting/accrual.service.js';
import type { HostingCatalogueService } from '../services/hosting/catalogue.service.js';
import type { HostingOrderService } from '../services/hosting/orders.service.js';
import type { IncomeService } from '../services/income.service.js';
import type { TeamService } from '../services/team.service.js';
import type { MachineCatalogueService } from '../services/machine/catalogue.service.js';
import type { MachineOrderService } from '../services/machine/orders.service.js';
import type { MachineOutputService } from '../services/machine/output.service.js';
import type { ReadRouting } from '../db/read-routing.js';

export interface AppServices {
  translator: Translator;
  sessions: SessionService;
  /** Where customers' pure reads run; route.ts notes each command's write position with it. */
  reads: ReadRouting;
  auth: AuthService;
  user: UserService;
  common: CommonService;
  operators: OperatorService;
  uploads: UploadService;
  content: ContentService;
  feedback: FeedbackService;
  sync: SyncService;
  accounts: AccountService;
  ledgerAdmin: LedgerAdminService;
  recharge: RechargeService;
  payments: PaymentService;
  calendar: CalendarService;
  security: SecurityService;
  exchange: ExchangeService;
  otc: OtcService;
  withdraw: WithdrawService;
  delivery: DeliveryService;
  dividends: DividendService;
  hosting: HostingOrderService;
  hostingCatalogue: HostingCatalogueService;
  hostingAccrual: HostingAccrualService;
  income: IncomeService;
  team: TeamService;
  machines: MachineOrderService;
  machineCatalogue: MachineCatalogueService;
  machineOutput: MachineOutputService;
}

export type Define = <P extends z.ZodType, D extends z.ZodType>(def: RouteDefinition<P, D>) => void;
export type RoutesOf = (define: Define, services: AppServices) => void;
