/** /api/v1/otc/* and /api/v1/pending/*: the OTC market of RAB priced in USDT. */
import * as otc from '../../contract/api/otc.js';
import type { RoutesOf } from './route-list.js';

export const otcRoutes: RoutesOf = (define, { otc: market }) => {
  define({
    path: '/api/v1/otc/info',
    kind: 'read',
    access: 'user',
    params: otc.otcInfoParamsSchema,
    data: otc.otcInfoDataSchema,
    summary:
      'The guide price and its band, the maker and taker fee rates, the minimum, the account’s USDT and RAB',
    handle: (ctx, params) => market.info(ctx, params),
  });
  define({
    path: '/api/v1/otc/buy',
    kind: 'command',
    access: 'user',
    movesMoney: true,
    params: otc.otcListParamsSchema,
    data: otc.otcOrderSchema,
    summary: 'List a buy order: the USDT for the volume plus the maker fee is held',
    success: 'server.otc_listed',
    handle: (ctx, params) => market.list(ctx, 'buy', params),
  });
  define({
    path: '/api/v1/otc/sell',
    kind: 'command',
    access: 'user',
    movesMoney: true,
    params: otc.otcListParamsSchema,
    data: otc.otcOrderSchema,
    summary: 'List a sell order: the RAB volume is held',
    success: 'server.otc_listed',
    handle: (ctx, params) => market.list(ctx, 'sell', params),
  });
  define({
    path: '/api/v1/otc/take',
    kind: 'command',
    access: 'user',
    movesMoney: true,
    params: otc.otcTakeParamsSchema,
    data: otc.otcTakeDataSchema,
    summary:
      'Take (part of) another customer’s order at the price shown (409 with its state when it changed)',
    success: 'server.otc_taken',
    handle: (ctx, params) => market.take(ctx, params),
  });
  define({
    path: '/api/v1/otc/cancel',
    kind: 'command',
    access: 'user',
    movesMoney: true,
    params: otc.otcOrderIdParamsSchema,
    data: otc.otcOrderSchema,
    summary: 'Cancel my open order: what is not filled is released',
    success: 'server.otc_cancelled',
    handle: (ctx, params) => market.cancel(ctx, params),
  });
  define({
    path: '/api/v1/pending/info',
    kind: 'read',
    access: 'user',
    params: otc.otcOrderIdParamsSchema,
    data: otc.otcBookOrderSchema,
    summary: 'One order as the book shows it',
    handle: (ctx, params) => market.pendingInfo(ctx, params),
  });
  define({
    path: '/api/v1/pending/list',
    kind: 'read',
    access: 'user',
    params: otc.otcBookParamsSchema,
    data: otc.otcBookDataSchema,
    summary: 'The open buy orders (to sell into), newest or best price first',
    handle: (ctx, params) => market.book(ctx, 'buy', params),
  });
  define({
    path: '/api/v1/otc/allSellList',
    kind: 'read',
    access: 'user',
    params: otc.otcBookParamsSchema,
    data: otc.otcBookDataSchema,
    summary: 'The open sell orders (to buy from), newest or best price first',
    handle: (ctx, params) => market.book(ctx, 'sell', params),
  });
  define({
    path: '/api/v1/otc/meBuyList',
    kind: 'read',
    access: 'user',
    params: otc.otcMyListParamsSchema,
    data: otc.otcMyListDataSchema,
    summary: 'My buy orders, newest first',
    handle: (ctx, params) => market.mine(ctx, 'buy', params),
  });
  define({
    path: '/api/v1/otc/meSellList',
    kind: 'read',
    access: 'user',
    params: otc.otcMyListParamsSchema,
    data: otc.otcMyListDataSchema,
    summary: 'My sell orders, newest first',
    handle: (ctx, params) => market.mine(ctx, 'sell', params),
  });
};
