/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break, quotes doubled. Text a spreadsheet
 * would run as a formula (starting with = + - @, or a tab or carriage return that hides one) gets a leading
 * apostrophe first, so opening the export never runs anything (OWASP "CSV injection"). Numbers are written as
 * they are: a negative Mana figure stays a number. Shared by the audit log's and the rewards export's CSV.
 */
export function csvCell(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Rows as CSV text with CRLF line ends (what spreadsheets expect). */
export function toCsv(rows: readonly (readonly (string | number)[])[]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
