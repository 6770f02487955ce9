/**
 * The operators' hosting products (docs/protocol.md section 20): list, add, update, disable, each
 * audited (`hosting.product_add|update|disable`). Orders already made keep their terms: a change
 * of a product never touches an order.
 */
import type {
  AdminHostingProduct,
  ProductAddParams,
  ProductUpdateParams,
} from '../../../contract/api/hosting.js';
import { parseMoney } from '../../../contract/money.js';
import { invalidField } from '../../core/errors.js';
import {
  findProduct,
  insertProduct,
  listProducts,
  updateProduct,
  type HostingProductRow,
} from '../../repositories/hosting.repository.js';
import type { ServiceCore } from '../service-core.js';
import { Catalogue, type CatalogueSpec } from '../catalogue.js';
import { termsOf, toAdminHostingProduct } from './records.js';

/** 400 naming `maximum` when it is below `minimum`. */
function assertBounds(minimum: bigint, maximum: bigint): void {
  if (maximum < minimum) throw invalidField('maximum', 'server.hosting_bounds_invalid');
}

const products: CatalogueSpec<HostingProductRow, ProductAddParams, ProductUpdateParams, AdminHostingProduct> =
  {
    action: (verb) => `hosting.product_${verb}`,
    what: 'hosting_products: product',
    list: (db) => listProducts(db, false),
    find: findProduct,
    insert(tx, params, stamp) {
      const minimum = parseMoney(params.minimum);
      const maximum = parseMoney(params.maximum);
      assertBounds(minimum, maximum);
      return insertProduct(tx, {
        ...stamp,
        days: params.days,
        dailyRate: params.dailyRate,
        minimum,
        maximum,
        payout: params.payout,
        earlyExit: params.earlyExit,
        penaltyRate: params.earlyExit ? (params.penaltyRate ?? '0') : '0',
      });
    },
    update(tx, current, params, stamp) {
      const minimum = params.minimum === undefined ? current.minimum : parseMoney(params.minimum);
      const maximum = params.maximum === undefined ? current.maximum : parseMoney(params.maximum);
      assertBounds(minimum, maximum);
      const earlyExit = params.earlyExit ?? current.earlyExit;
      return updateProduct(tx, current.id, {
        ...stamp,
        days: params.days ?? current.days,
        dailyRate: params.dailyRate ?? current.dailyRate,
        minimum,
        maximum,
        payout: params.payout ?? current.payout,
        earlyExit,
        penaltyRate: earlyExit ? (params.penaltyRate ?? current.penaltyRate) : '0',
      });
    },
    disabling: (id) => ({ id, status: 'disabled' }),
    detail: (row) => ({ names: row.names, ...termsOf(row), status: row.status }),
    toAdmin: toAdminHostingProduct,
  };

/** The hosting products' operator methods (the admin API's and the CLI's). */
export type HostingCatalogueService = Catalogue<
  HostingProductRow,
  ProductAddParams,
  ProductUpdateParams,
  AdminHostingProduct
>;

export const hostingCatalogue = (core: ServiceCore): HostingCatalogueService => new Catalogue(core, products);
