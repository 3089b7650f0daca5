// CSV exports of the admin pages (bookings as filtered, the month's takings), for a spreadsheet.
// Written for Excel in Italian as operators open it: `;` between fields (`,` is the decimal mark),
// CRLF line ends, a UTF-8 byte order mark so accents survive, every field quoted when it needs to be.

export type CsvCell = string | number | null | undefined;

/**
 * A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR at its start) gets a
 * leading apostrophe: a customer named `=HYPERLINK(…)` stays text (CSV injection).
 */
function neutralised(text: string): string {
  if (/^-?\d+(,\d+)?$/.test(text)) return text; // a plain (negative) amount is a number, not a formula
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

function field(cell: CsvCell): string {
  if (cell === null || cell === undefined) return '';
  const text = typeof cell === 'number' ? String(cell) : neutralised(cell);
  return /[";\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The CSV text of a header and its rows (numbers as they are: amounts should come formatted). */
export function toCsv(header: readonly string[], rows: ReadonlyArray<readonly CsvCell[]>): string {
  return `\uFEFF${[header, ...rows].map((row) => row.map(field).join(';')).join('\r\n')}\r\n`;
}

/** Cents as the spreadsheet reads a number in Italian: `1234,50` (no currency sign, no thousands). */
export function csvEuros(cents: number | null | undefined): string {
  if (cents === null || cents === undefined) return '';
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  return `${sign}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
}

/** Saves `text` as a file the browser downloads. */
export function downloadCsv(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
