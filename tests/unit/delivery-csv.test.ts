/**
 * contract/delivery-csv.ts: a delivery import read as the server reads it, every line at once
 * (the console's preview): a bad line names its line and column, a second use of an order
 * number names the first line, a header or quoting fault leaves no line checked.
 */
import { describe, expect, test } from 'vitest';
import { checkDeliveryCsv } from '../../contract/delivery-csv.js';

const HEADER =
  'orderNo,symbol,direction,lots,leverage,openPrice,closePrice,openTime,closeTime,margin,spread,profitLoss';
const row = (orderNo: string, direction = 'buy', closeTime = '2026-11-02T15:00:00+08:00') =>
  `${orderNo},XAUUSD,${direction},1.50,100,2350.10,2361.45,2026-11-02T09:30:00+08:00,${closeTime},2350.1,0.3,-17.5`;

describe('checkDeliveryCsv', () => {
  test('a good file gives every line its record, normalised as add parses it', () => {
    const checked = checkDeliveryCsv(`\uFEFF${HEADER}\r\n${row('A1')}\r\n\r\n${row('A2', 'sell')}\r\n`);
    expect(checked.problem).toBeNull();
    expect(checked.lines.map((line) => [line.line, line.problem, line.record?.lots])).toEqual([
      [2, null, '1.5'],
      [4, null, '1.5'],
    ]);
    expect(checked.lines[0]?.record?.openTime).toBe('2026-11-02T01:30:00.000Z');
  });

  test('every bad line is reported with its line and column, not only the first', () => {
    const checked = checkDeliveryCsv(
      [HEADER, row('A1', 'up'), row('A2'), row('A3', 'buy', '2026-11-01T00:00:00Z'), row('A2'), 'x,y'].join(
        '\n',
      ),
    );
    expect(checked.problem).toBeNull();
    expect(checked.lines.map((line) => line.problem)).toEqual([
      { key: 'delivery_csv_row_invalid', line: 2, column: 'direction' },
      null,
      { key: 'delivery_csv_close_before_open', line: 4, column: 'closeTime' },
      { key: 'delivery_csv_duplicate', line: 5, orderNo: 'A2', first: 3 },
      { key: 'delivery_csv_columns', line: 6, count: 2, expected: 12 },
    ]);
  });

  test('a file the import cannot read at all leaves no line checked', () => {
    expect(checkDeliveryCsv(`orderNo,symbol\n${row('A1')}`)).toEqual({
      problem: { key: 'delivery_csv_header', line: 1 },
      lines: [],
    });
    expect(checkDeliveryCsv(HEADER).problem).toEqual({ key: 'delivery_csv_empty' });
    expect(checkDeliveryCsv(`${HEADER}\n"A1,XAUUSD`).problem).toEqual({
      key: 'delivery_csv_syntax',
      line: 2,
    });
  });
});
