/**
 * Delivery (trade settlement) records (docs/protocol.md section 21): the platform's
 * published trades, which every customer reads (they are nobody's own positions).
 *
 * What stays true:
 * - an import publishes every line of its file or none: each line is parsed with the schema of
 *   `add` before anything is written, a bad line is refused naming its line and column, and the
 *   records go in with one statement in one transaction (a published order number refuses the
 *   whole file, also when another import publishes it at the same moment: the unique index);
 * - every write is audited and recorded for sync (the public `delivery` collection) in its
 *   transaction; exactly once per Idempotency-Key through the API.
 */
import {
  DELIVERY_COLUMNS,
  type DeliveryAddParams,
  type DeliveryImportData,
  type DeliveryListData,
  type DeliveryRecord,
} from '../../contract/api/delivery.js';
import { BodyCode } from '../../contract/codes.js';
import { checkDeliveryCsv, type DeliveryCsvProblem } from '../../contract/delivery-csv.js';
import { parseMoney } from '../../contract/money.js';
import type { RequestContext } from '../core/context.js';
import { BusinessError, notFound } from '../core/errors.js';
import type { Executor } from '../db/database.js';
import {
  deleteDeliveryRecord,
  insertDeliveryRecords,
  listDeliveryRecords,
  publishedOrderNos,
  type DeliveryRow,
} from '../repositories/delivery.repository.js';
import { appendAudit } from '../repositories/operator.repository.js';
import { recordChanges } from '../repositories/sync.repository.js';
import { actorOf } from './operator.service.js';
import { toDeliveryRecord } from './records.js';
import { CoreService } from './service-core.js';

const LIST_PAGE = 20;
const COLLECTION = 'delivery';

/** 400 about the CSV file (`data.field` is `csv`, with the line when one is at fault). */
const csvError = (key: string, vars: Record<string, string | number>, data: Record<string, unknown> = {}) =>
  new BusinessError(BodyCode.invalidInput, key, vars, { field: 'csv', ...data });

/** A parsed line of an import (or the one record of `add`) and the line it came from. */
interface Line {
  line: number | null;
  record: DeliveryAddParams;
}

export class DeliveryService extends CoreService {
  /** Publishes one record; 409 when its order number is already published. */
  add(ctx: RequestContext, params: DeliveryAddParams): Promise<DeliveryRecord> {
    return this.commands.run(ctx, async (tx) => {
      const [row] = await this.publish(tx, actorOf(ctx), [{ line: null, record: params }]);
      if (!row) throw new Error('delivery: add published nothing');
      return toDeliveryRecord(row);
    });
  }

  /** Publishes every line of a CSV file, or none (400 naming the line, 409 on a published order number). */
  importCsv(ctx: RequestContext, params: { csv: string }): Promise<DeliveryImportData> {
    return this.commands.run(ctx, (tx) => this.importIn(tx, actorOf(ctx), params.csv));
  }

  /** Withdraws a published record (an operator's mistake); 404 when there is none. */
  delete(ctx: RequestContext, params: { id: string }): Promise<{ done: true }> {
    return this.commands.run(ctx, async (tx) => {
      const row = /^\d{1,15}$/.test(params.id) ? await deleteDeliveryRecord(tx, Number(params.id)) : null;
      if (!row) throw notFound();
      const now = this.clock.now();
      await appendAudit(tx, {
        actor: actorOf(ctx),
        action: 'delivery.delete',
        target: `delivery:${row.id}`,
        detail: { orderNo: row.orderNo },
        at: now,
      });
      await recordChanges(tx, [
        { collection: COLLECTION, scopeId: 0, recordId: String(row.id), deleted: true, at: now },
      ]);
      return { done: true as const };
    });
  }

  /** Published records, newest published first, paged by id. Read-only. */
  async list(params: { cursor?: string | undefined; limit?: number | undefined }): Promise<DeliveryListData> {
    const limit = params.limit ?? LIST_PAGE;
    const rows = await listDeliveryRecords(this.db, {
      beforeId: params.cursor ? Number(params.cursor) : undefined,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map(toDeliveryRecord),
      nextCursor: rows.length > limit && last ? String(last.id) : null,
    };
  }

  private async importIn(tx: Executor, actor: string, csv: string): Promise<DeliveryImportData> {
    const lines = parseLines(csv);
    const rows = await this.publish(tx, actor, lines);
    return { imported: rows.length, ids: rows.map((row) => String(row.id)) };
  }

  /** Writes the records, their audit entry and their sync changes; all or nothing. */
  private async publish(tx: Executor, actor: string, lines: readonly Line[]): Promise<DeliveryRow[]> {
    const now = this.clock.now();
    const seen = new Map<string, number | null>();
    for (const { line, record } of lines) {
      if (seen.has(record.orderNo)) {
        throw csvError(
          'server.delivery_csv_duplicate',
          { line: line ?? 0, orderNo: record.orderNo, first: seen.get(record.orderNo) ?? 0 },
          { line },
        );
      }
      seen.set(record.orderNo, line);
    }
    const taken = async () => {
      const [orderNo] = await publishedOrderNos(tx, [...seen.keys()]);
      return orderNo === undefined ? null : orderNo;
    };
    const refuseTaken = (orderNo: string) => {
      const line = seen.get(orderNo) ?? null;
      return line === null
        ? new BusinessError(
            BodyCode.conflict,
            'server.delivery_order_exists',
            { orderNo },
            { field: 'orderNo' },
          )
        : new BusinessError(
            BodyCode.conflict,
            'server.delivery_csv_order_exists',
            { orderNo, line },
            { field: 'csv', line, column: 'orderNo' },
          );
    };
    const already = await taken();
    if (already !== null) throw refuseTaken(already);
    const rows = await insertDeliveryRecords(
      tx,
      lines.map(({ record }) => ({
        orderNo: record.orderNo,
        symbol: record.symbol,
        direction: record.direction,
        lots: record.lots,
        leverage: record.leverage,
        openPrice: record.openPrice,
        closePrice: record.closePrice,
        openTime: new Date(record.openTime),
        closeTime: new Date(record.closeTime),
        margin: parseMoney(record.margin),
        spread: record.spread,
        profitLoss: parseMoney(record.profitLoss),
        publishedAt: now,
        publishedBy: actor,
      })),
    );
    if (rows === null) {
      // Another import published one of these order numbers after the check above.
      throw refuseTaken((await taken()) ?? lines[0]?.record.orderNo ?? '');
    }
    const first = rows[0];
    const last = rows[rows.length - 1];
    await appendAudit(tx, {
      actor,
      action: rows.length === 1 && lines[0]?.line === null ? 'delivery.add' : 'delivery.import',
      target: first && last ? `delivery:${first.id}-${last.id}` : 'delivery',
      detail: { count: rows.length, orderNos: rows.slice(0, 20).map((row) => row.orderNo) },
      at: now,
    });
    await recordChanges(
      tx,
      rows.map((row) => ({
        collection: COLLECTION,
        scopeId: 0,
        recordId: String(row.id),
        deleted: false,
        at: now,
      })),
    );
    return rows;
  }
}

/**
 * The records of a CSV file, each parsed as `add` parses its params (contract/delivery-csv.ts):
 * a header naming every column once (any order), then a record per line. Throws 400 naming the
 * first bad line (an order number used twice is refused by `publish`, as for `add`).
 */
export function parseLines(csv: string): Line[] {
  const checked = checkDeliveryCsv(csv);
  const problem =
    checked.problem ??
    checked.lines.find((line) => line.problem && line.problem.key !== 'delivery_csv_duplicate')?.problem ??
    null;
  if (problem) throw problemError(problem);
  return checked.lines.flatMap(({ line, record }) => (record ? [{ line, record }] : []));
}

/** The 400 of a file's problem, as the API answers it (`field` is the column, named in the reader's language). */
function problemError(problem: DeliveryCsvProblem): BusinessError {
  const key = `server.${problem.key}`;
  switch (problem.key) {
    case 'delivery_csv_syntax':
      return csvError(key, { line: problem.line }, { line: problem.line });
    case 'delivery_csv_header':
      return csvError(key, { columns: DELIVERY_COLUMNS.join(',') }, { line: 1 });
    case 'delivery_csv_empty':
      return csvError(key, {});
    case 'delivery_csv_too_many':
      return csvError(key, { max: problem.max });
    case 'delivery_csv_columns':
      return csvError(
        key,
        { line: problem.line, count: problem.count, expected: problem.expected },
        { line: problem.line },
      );
    case 'delivery_csv_duplicate':
      return csvError(
        key,
        { line: problem.line, orderNo: problem.orderNo, first: problem.first },
        { line: problem.line },
      );
    default:
      return new BusinessError(
        BodyCode.invalidInput,
        key,
        { line: problem.line, field: problem.column },
        { field: 'csv', line: problem.line, column: problem.column },
      );
  }
}
