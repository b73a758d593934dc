/**
 * One CSV cell of an export a spreadsheet will open ([history](../../docs/history.md#one-viewers-export)): the
 * recap's and a viewer's. Their text cells are someone else's words (a reward title, a name, a chat line, a
 * reason), so a cell a spreadsheet would run as a formula is shown as text, and RFC 4180 quoting keeps a comma,
 * quote or line break inside its cell.
 */
export type CsvValue = string | number | null;

/**
 * A cell whose first visible character is a formula prefix (`=`, `+`, `-`, `@`, or their full-width forms, which
 * some spreadsheets read the same; spaces and invisible characters before it do not hide it) or that starts with a
 * tab, carriage return or line feed gets a leading `'`; a comma, quote or line break is quoted.
 */
export function csvCell(cell: CsvValue): string {
  if (cell === null) {
    return '';
  }
  if (typeof cell === 'number') {
    return String(cell);
  }
  const safe = FORMULA_START.test(cell) ? `'${cell}` : cell;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
const FORMULA_START = /^(?:[\t\r\n]|[\s\p{Cc}\p{Cf}]*[=+\-@\uff1d\uff0b\uff0d\uff20])/u;
