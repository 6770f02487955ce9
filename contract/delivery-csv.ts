/**
 * Reading a CSV file of delivery records (RFC 4180): comma-separated values, a value in double
 * quotes may hold commas, line breaks and `""` for a quote; lines end in LF or CRLF; a leading
 * byte-order mark and blank lines are ignored. Pure; throws CsvSyntaxError naming the line.
 * `checkDeliveryCsv` reads a whole import with the rules the server applies (the server uses it;
 * the console previews a file with it before sending).
 */
import {
  DELIVERY_COLUMNS,
  DELIVERY_IMPORT_MAX_ROWS,
  deliveryAddParamsSchema,
  type DeliveryAddParams,
} from './api/delivery.js';

export class CsvSyntaxError extends Error {
  constructor(readonly line: number) {
    super(`CSV syntax error on line ${line}`);
  }
}

/** One record of the file: its values, and the line it starts on (1 = the header). */
export interface CsvRow {
  line: number;
  values: string[];
}

/** Splits CSV text into rows of values; the first row is the header. Throws CsvSyntaxError on an unclosed quote. */
export function parseCsv(text: string): CsvRow[] {
  const rows: CsvRow[] = [];
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  let values: string[] = [];
  let value = '';
  let quoted = false;
  let afterQuote = false;
  let line = 1;
  let rowLine = 1;
  const endValue = () => {
    values.push(value);
    value = '';
    afterQuote = false;
  };
  const endRow = () => {
    endValue();
    if (values.length > 1 || values[0] !== '') rows.push({ line: rowLine, values });
    values = [];
  };
  for (let index = 0; index < source.length; index += 1) {
    const char = source[index];
    if (quoted) {
      if (char === '"' && source[index + 1] === '"') {
        value += '"';
        index += 1;
      } else if (char === '"') {
        quoted = false;
        afterQuote = true;
      } else {
        if (char === '\n') line += 1;
        value += char;
      }
      continue;
    }
    if (char === '"' && value === '' && !afterQuote) {
      quoted = true;
    } else if (char === ',') {
      endValue();
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && source[index + 1] === '\n') index += 1;
      endRow();
      line += 1;
      rowLine = line;
    } else if (afterQuote) {
      // Text after a closing quote ("a"b) is not CSV.
      throw new CsvSyntaxError(rowLine);
    } else {
      value += char;
    }
  }
  if (quoted) throw new CsvSyntaxError(rowLine);
  endRow();
  return rows;
}

/** What is wrong with a delivery CSV file, or with one of its lines (the server's message keys, without `server.`). */
export type DeliveryCsvProblem =
  | { key: 'delivery_csv_syntax'; line: number }
  | { key: 'delivery_csv_header'; line: 1 }
  | { key: 'delivery_csv_empty' }
  | { key: 'delivery_csv_too_many'; max: number }
  | { key: 'delivery_csv_columns'; line: number; count: number; expected: number }
  | { key: 'delivery_csv_row_invalid' | 'delivery_csv_close_before_open'; line: number; column: string }
  | { key: 'delivery_csv_duplicate'; line: number; orderNo: string; first: number };

/** One record line of the file: its values by column, and its record or what is wrong with it. */
export interface DeliveryCsvLine {
  line: number;
  values: Record<string, string>;
  record: DeliveryAddParams | null;
  problem: DeliveryCsvProblem | null;
}

type Column = (typeof DELIVERY_COLUMNS)[number];
const isColumn = (name: string): name is Column => (DELIVERY_COLUMNS as readonly string[]).includes(name);

/**
 * Checks a delivery CSV file as an import reads it: a header naming every column once (any
 * order), then a record per line, each parsed with the schema of `add`. `problem` is what makes
 * the whole file unreadable (no line is checked then); otherwise each line carries its record
 * or its first problem (a second use of an order number in the file is one). Pure: the server
 * refuses the file on its first problem; the console previews every line with it.
 */
export function checkDeliveryCsv(csv: string): {
  problem: DeliveryCsvProblem | null;
  lines: DeliveryCsvLine[];
} {
  let rows;
  try {
    rows = parseCsv(csv);
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    return { problem: { key: 'delivery_csv_syntax', line: error.line }, lines: [] };
  }
  const [header, ...body] = rows;
  const columns = header?.values.map((name) => name.trim()) ?? [];
  const known = columns.filter(isColumn);
  if (known.length !== columns.length || new Set(known).size !== DELIVERY_COLUMNS.length)
    return { problem: { key: 'delivery_csv_header', line: 1 }, lines: [] };
  if (body.length === 0) return { problem: { key: 'delivery_csv_empty' }, lines: [] };
  if (body.length > DELIVERY_IMPORT_MAX_ROWS)
    return { problem: { key: 'delivery_csv_too_many', max: DELIVERY_IMPORT_MAX_ROWS }, lines: [] };
  const firstLineOf = new Map<string, number>();
  const lines = body.map(({ line, values }): DeliveryCsvLine => {
    const raw = Object.fromEntries(columns.map((name, index) => [name, values[index] ?? '']));
    if (values.length !== columns.length) {
      const problem = {
        key: 'delivery_csv_columns',
        line,
        count: values.length,
        expected: columns.length,
      } as const;
      return { line, values: raw, record: null, problem };
    }
    const parsed = deliveryAddParamsSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const key =
        issue?.message === 'server.delivery_close_before_open'
          ? 'delivery_csv_close_before_open'
          : 'delivery_csv_row_invalid';
      return {
        line,
        values: raw,
        record: null,
        problem: { key, line, column: String(issue?.path[0] ?? 'csv') },
      };
    }
    const first = firstLineOf.get(parsed.data.orderNo);
    if (first !== undefined) {
      const problem = { key: 'delivery_csv_duplicate', line, orderNo: parsed.data.orderNo, first } as const;
      return { line, values: raw, record: parsed.data, problem };
    }
    firstLineOf.set(parsed.data.orderNo, line);
    return { line, values: raw, record: parsed.data, problem: null };
  });
  return { problem: null, lines };
}
