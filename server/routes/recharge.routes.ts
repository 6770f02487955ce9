/** /api/v1/recharge: each account's deposit address per chain, and its deposits. */
import * as recharge from '../../contract/api/recharge.js';
import type { RoutesOf } from './route-list.js';

export const rechargeRoutes: RoutesOf = (define, { recharge: service }) => {
  define({
    path: '/api/v1/recharge/address',
    kind: 'read',
    access: 'user',
    params: recharge.rechargeAddressParamsSchema,
    data: recharge.rechargeAddressDataSchema,
    summary:
      "The account's USDT deposit address on BEP20 or TRC20, with the contract, minimum and confirmations",
    handle: (ctx, params) => service.address(ctx, params),
  });
  define({
    path: '/api/v1/recharge/list',
    kind: 'read',
    access: 'user',
    params: recharge.rechargeListParamsSchema,
    data: recharge.rechargeListDataSchema,
    summary: "The account's deposits, newest first (confirming, held, credited, below_minimum, reversed)",
    handle: (ctx, params) => service.list(ctx, params),
  });
};
