/**
 * One CSV record (RFC 4180): a field with a comma, a quote or a line break is quoted, its
 * quotes doubled. A field a spreadsheet would run as a formula (it starts with =, +, -, @, a
 * tab or a carriage return) gets a leading apostrophe: agents choose their names and the
 * text of their requests, and an export must not run their formulas where it is opened.
 */
export function csvLine(fields: readonly string[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
