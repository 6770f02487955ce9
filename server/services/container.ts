/**
 * The service container: every service a route list hands over to, built once at the start
 * (server/app.ts). Its type lives with the services so that routes need nothing below them.
 */
import type { Translator } from '../i18n/i18n.js';
import type { AuthService } from './auth.service.js';
import type { CommonService } from './common.service.js';
import type { OperatorService } from './operator.service.js';
import type { OperatorAuthService } from './operator-auth.service.js';
import type { CustomerAdminService } from './customer-admin.service.js';
import type { DashboardService } from './dashboard.service.js';
import type { SessionService } from './session.service.js';
import type { UploadService } from './upload.service.js';
import type { UserService } from './user.service.js';
import type { ContentService } from './content.service.js';
import type { FeedbackService } from './feedback.service.js';
import type { SyncService } from './sync.service.js';
import type { AccountService } from './account.service.js';
import type { LedgerAdminService } from './ledger-admin.service.js';
import type { RechargeService } from './recharge.service.js';
import type { PaymentService } from './payment.service.js';
import type { CalendarService } from './calendar.service.js';
import type { SecurityService } from './security.service.js';
import type { SecurityCentreService } from './security-centre.service.js';
import type { UserMail } from './user-mail.js';
import type { ExchangeService } from './exchange.service.js';
import type { OtcService } from './otc.service.js';
import type { WithdrawService } from './withdraw.service.js';
import type { DeliveryService } from './delivery.service.js';
import type { DividendService } from './dividend.service.js';
import type { HostingAccrualService } from './hosting/accrual.service.js';
import type { HostingCatalogueService } from './hosting/catalogue.service.js';
import type { HostingOrderService } from './hosting/orders.service.js';
import type { IncomeService } from './income.service.js';
import type { TeamService } from './team.service.js';
import type { MachineCatalogueService } from './machine/catalogue.service.js';
import type { MachineOrderService } from './machine/orders.service.js';
import type { MachineOutputService } from './machine/output.service.js';
import type { IdentityService } from './identity.service.js';
import type { ProofOfReservesService } from './proof-of-reserves.service.js';
import type { ReadRouting } from '../db/read-routing.js';
import type { PasskeyService } from './passkey.service.js';
import type { ChatService } from './chat.service.js';

export interface AppServices {
  translator: Translator;
  sessions: SessionService;
  /** Where customers' pure reads run; route.ts notes each command's write position with it. */
  reads: ReadRouting;
  auth: AuthService;
  user: UserService;
  common: CommonService;
  operators: OperatorService;
  operatorAuth: OperatorAuthService;
  customerAdmin: CustomerAdminService;
  dashboard: DashboardService;
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
  securityCentre: SecurityCentreService;
  /** Mail to a user no request of theirs caused: their last language, their anti-phishing code. */
  userMail: UserMail;
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
  identity: IdentityService;
  proofOfReserves: ProofOfReservesService;
  passkeys: PasskeyService;
  /** Customer service chat (docs/protocol.md §35). */
  chat: ChatService;
}
