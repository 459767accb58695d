import type { AuditEvent } from './domain';

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

/** The formats `gatehouse export` writes. */
export type ExportFormat = 'jsonl' | 'csv';

const CSV_COLUMNS = ['seq', 'at', 'type', 'sessionId', 'agent', 'requestId', 'data'] as const;

/** What an export file starts with: the CSV header, or nothing for JSON Lines. */
export const exportHeader = (format: ExportFormat): string =>
  format === 'csv' ? csvLine([...CSV_COLUMNS]) : '';

/**
 * One audit entry as an export file holds it. The daemon formats the same bytes to sign an
 * export (admin method `audit.exportSignature`), so this is the one definition of them.
 */
export function exportRecord(e: AuditEvent, format: ExportFormat): string {
  return format === 'csv'
    ? csvLine([
        String(e.seq),
        e.at,
        e.type,
        e.sessionId ?? '',
        e.agent ?? '',
        e.requestId ?? '',
        JSON.stringify(e.data),
      ])
    : `${JSON.stringify(e)}\n`;
}

/** The text an export's signature covers: what was exported, and a digest of its bytes. */
export function exportSignedText(s: {
  format: ExportFormat;
  since?: string | undefined;
  until: string;
  entries: number;
  bytes: number;
  sha256: string;
  signedAt: string;
}): string {
  return [
    'gatehouse export v1',
    `format=${s.format}`,
    `since=${s.since ?? ''}`,
    `until=${s.until}`,
    `entries=${s.entries}`,
    `bytes=${s.bytes}`,
    `sha256=${s.sha256}`,
    `signedAt=${s.signedAt}`,
  ].join('\n');
}
