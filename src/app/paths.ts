/**
 * The spec's route paths, apart from the route table: pages import these, and the table
 * (routes.tsx) imports the pages, so the paths must not live in the table's module.
 */
export const ROUTES = {
  login: '/pages/login/login',
  register: '/pages/register/register',
  registerVerify: '/pages/register/verify_code',
  forgot: '/pages/forget_pwd/forget_pwd',
  forgotVerify: '/pages/forget_pwd/verify_code',
  forgotReset: '/pages/forget_pwd/forget_pwd1',
  download: '/pages/download/download',
  home: '/pages/index/index',
  hosting: '/pages/index/index2',
  team: '/pages/blance_record/blance_record6',
  my: '/pages/my/my',
  trading: '/pages/index/index1',
  settings: '/pages/setting/setting',
  /** Customer service: the support entry (hours, community links) and the conversation (docs/protocol.md §35). */
  kefu: '/pages/kefu/kefu',
  chatRoom: '/pages/chatroom/room',
  /** Spec section 4's password change: mode 1 (login) on update_pwd, mode 2 (trade) on update_pwd1 and update_pwd2 (the 300 target). */
  updatePassword: '/pages/update_pwd/update_pwd',
  updatePassword1: '/pages/update_pwd/update_pwd1',
  updatePassword2: '/pages/update_pwd/update_pwd2',
  updatePassword3: '/pages/update_pwd/update_pwd3',
  withdraw2: '/pages/withdraw/withdraw2',
  /**
   * The spec has no route of its own for a news article or the outbox, and its second/second
   * pair is otherwise unused: second takes a news article (`?id=`), second1 the pending commands.
   */
  article: '/pages/second/second',
  outbox: '/pages/second/second1',
  profile: '/pages/setting/setting1',
  /** Real-name verification: the status and the form to submit a document (docs/protocol.md §30). */
  identity: '/pages/setting/setting2',
  feedback: '/pages/setting/setting3',
  /** The security centre: signed-in devices, the anti-phishing code, the e-mail address. */
  securityCentre: '/pages/setting/setting5',
  /**
   * Money: the wallet records are blance_record (its numbered siblings hold other records);
   * the spec's settings entry "switch main or sub-account, create sub-account" is setting4;
   * withdraw is the withdrawal and withdraw1 the recharge (withdraw2 holds withdrawal methods).
   */
  walletRecords: '/pages/blance_record/blance_record',
  accounts: '/pages/setting/setting4',
  withdraw: '/pages/withdraw/withdraw',
  recharge: '/pages/withdraw/withdraw1',
  /** The RAB/USDT exchange and its records. */
  exchange: '/pages/withdraw/withdraw3',
  withdrawRecords: '/pages/withdraw_record/withdraw_record',
  /**
   * Hosting: order_detail holds the delivery (trade settlement) records the platform
   * publishes, a list rather than one order's detail (the spec shows delivery orders only as records).
   */
  delivery: '/pages/order_detail/order_detail',
  /**
   * Mining machines: goods_detail holds the machines on offer, each with its buy and
   * rent (the spec's machines are the only goods it shows); blance_record10, 11 and 12 hold the
   * customer's machines, the mining records (income lines of type mining_machine) and the tickets.
   */
  machines: '/pages/goods_detail/goods_detail',
  myMachines: '/pages/blance_record/blance_record10',
  miningRecords: '/pages/blance_record/blance_record11',
  tickets: '/pages/blance_record/blance_record12',
  /** AI dividends: blance_record2 of the spec's numbered record pages, the release records with claims. */
  dividends: '/pages/blance_record/blance_record2',
  /** The user's invite code and register link as a QR code, savable as an image. */
  sharePoster: '/pages/share_poster/share_poster',
  /** Proof of reserves (from the Assets tab): the user's proof, verified on the device; not a spec route. */
  reserves: '/pages/reserves/reserves',
  /** Passkeys (Settings; the security centre links here too): not a spec route. */
  passkeys: '/pages/setting/passkeys',
} as const;

/** The five bottom tabs, in the spec's order. */
export const TABS = [
  { path: ROUTES.home, label: 'tabs.home', icon: 'home' },
  { path: ROUTES.hosting, label: 'tabs.hosting', icon: 'hosting' },
  { path: ROUTES.team, label: 'tabs.team', icon: 'team' },
  { path: ROUTES.my, label: 'tabs.assets', icon: 'assets' },
  { path: ROUTES.trading, label: 'tabs.trading', icon: 'trading' },
] as const;
