/**
 * Reading a CSV file of delivery records (RFC 4180): comma-separated values, a value in double
 * quotes may hold commas, line breaks and `""` for a quote; lines end in LF or CRLF; a leading
 * byte-order mark and blank lines are ignored. Pure; throws CsvSyntaxError naming the line.
 */

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
