/** /api/v1/exchange/*: the RAB/USDT exchange at the operators' price version; /api/admin/exchange/list. */
import * as exchange from '../../contract/api/exchange.js';
import { FINANCE, type RoutesOf } from './route-list.js';

export const exchangeRoutes: RoutesOf = (define, { exchange: exchanges }) => {
  define({
    path: '/api/v1/exchange/index',
    kind: 'read',
    access: 'user',
    params: exchange.exchangeIndexParamsSchema,
    data: exchange.exchangeIndexDataSchema,
    summary: 'The account’s RAB and USDT, the RAB price with its priceVersion, the fee rate and the bounds',
    handle: (ctx, params) => exchanges.index(ctx, params),
  });
  define({
    path: '/api/v1/exchange/submit',
    kind: 'command',
    access: 'user',
    movesMoney: true,
    params: exchange.exchangeSubmitParamsSchema,
    data: exchange.exchangeRecordSchema,
    summary: 'Exchange RAB and USDT at the priceVersion shown (409 with the new price when it changed)',
    success: 'server.exchange_done',
    handle: (ctx, params) => exchanges.submit(ctx, params),
  });
  define({
    path: '/api/v1/exchange/list',
    kind: 'read',
    access: 'user',
    params: exchange.exchangeListParamsSchema,
    data: exchange.exchangeListDataSchema,
    summary: 'The account’s exchanges, newest first',
    handle: (ctx, params) => exchanges.list(ctx, params),
  });
  define({
    path: '/api/admin/exchange/list',
    kind: 'read',
    access: FINANCE,
    params: exchange.adminExchangeListParamsSchema,
    data: exchange.adminExchangeListDataSchema,
    summary: 'Every exchange (or one account’s), newest first',
    handle: (_ctx, params) => exchanges.adminList(params),
  });
};
