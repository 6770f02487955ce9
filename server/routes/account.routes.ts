/** /api/v1/account, /api/v1/user/assets and /api/v1/wallet/records: accounts and money, from the ledger. */
import * as account from '../../contract/api/account.js';
import { noParamsSchema } from '../../contract/schema.js';
import type { RoutesOf } from './route-list.js';

export const accountRoutes: RoutesOf = (define, { accounts }) => {
  define({
    path: '/api/v1/account/list',
    kind: 'read',
    access: 'user',
    params: noParamsSchema,
    data: account.accountListDataSchema,
    summary: "The caller's accounts: main first, then sub-accounts",
    handle: (ctx) => accounts.list(ctx),
  });
  define({
    path: '/api/v1/account/createSubAccount',
    kind: 'command',
    access: 'user',
    params: account.createSubAccountParamsSchema,
    data: account.accountRecordSchema,
    summary: 'Open a sub-account (name 1-20 characters, at most 10)',
    success: 'server.saved',
    handle: (ctx, params) => accounts.createSubAccount(ctx, params),
  });
  define({
    path: '/api/v1/account/switch',
    kind: 'command',
    access: 'user',
    params: account.accountIdParamsSchema,
    data: account.accountRecordSchema,
    summary: 'Make one of the caller’s accounts the default shown first',
    success: 'server.saved',
    handle: (ctx, params) => accounts.switch(ctx, params),
  });
  define({
    path: '/api/v1/account/transfer',
    kind: 'command',
    access: 'user',
    movesMoney: true,
    params: account.accountTransferParamsSchema,
    data: account.accountTransferDataSchema,
    summary: 'Move available USDT or RAB between two of the caller’s accounts (470 when short)',
    success: 'server.submitted',
    handle: (ctx, params) => accounts.transfer(ctx, params),
  });
  define({
    path: '/api/v1/user/assets',
    kind: 'read',
    access: 'user',
    params: account.accountReadParamsSchema,
    data: account.assetsDataSchema,
    summary: "An account's cash, hosting, held, RAB and total in USDT, from the ledger",
    handle: (ctx, params) => accounts.assets(ctx, params),
  });
  define({
    path: '/api/v1/wallet/records',
    kind: 'read',
    access: 'user',
    params: account.walletRecordsParamsSchema,
    data: account.walletRecordsDataSchema,
    summary: "An account's wallet records, newest first, amounts signed from its side",
    handle: (ctx, params) => accounts.records(ctx, params),
  });
};
