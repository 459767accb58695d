import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import type { Command } from 'commander';
import { Option } from 'commander';
import type { AuditEvent } from '../../../shared/domain';
import type { AdminClient } from '../admin-client';
import { csvLine } from '../csv';
import { eachItem, write, type PageOf } from '../pages';
import { UsageError, withAdmin } from '../run-admin';

/** How many entries each call asks for. */
const EXPORT_PAGE = 1000;
/** From this many entries, progress goes to stderr. */
const PROGRESS_FROM = 5000;

const CSV_COLUMNS = ['seq', 'at', 'type', 'sessionId', 'agent', 'requestId', 'data'] as const;

interface ExportOptions {
  since?: string;
  until?: string;
  format: 'jsonl' | 'csv';
  out?: string;
}

/** A date the person typed, as ISO 8601 for the daemon; one that does not parse is refused. */
function isoDate(name: string, text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const ms = Date.parse(text);
  if (Number.isNaN(ms))
    throw new UsageError(`--${name}: "${text}" is not a date (e.g. 2026-01-31)`);
  return new Date(ms).toISOString();
}

/** `gatehouse export`: the audit trail of a time range, as JSON Lines or CSV. */
export function registerExportCommand(program: Command): void {
  program
    .command('export')
    .description(
      'Write the audit trail (newest first) as JSON Lines or CSV, e.g. before it is pruned',
    )
    .option('--since <date>', 'entries from this time on (e.g. 2026-01-01)')
    .option('--until <date>', 'entries before this time')
    .addOption(
      new Option('--format <format>', 'jsonl or csv').choices(['jsonl', 'csv']).default('jsonl'),
    )
    .option('--out <file>', 'write to this file instead of stdout')
    .action((o: ExportOptions) => withAdmin((c) => exportAudit(c, o)));
}

async function exportAudit(c: AdminClient, o: ExportOptions): Promise<void> {
  const since = isoDate('since', o.since);
  const until = isoDate('until', o.until);
  const range = { ...(since ? { since } : {}), ...(until ? { until } : {}) };
  const fetch = async (cursor: string | undefined, limit: number): Promise<PageOf<AuditEvent>> => {
    const page = await c.call('audit.query', {
      ...range,
      limit,
      // Counted once, for the progress line.
      ...(cursor ? { cursor } : { withTotal: true }),
    });
    return { items: page.events, total: page.total, nextCursor: page.nextCursor };
  };
  let total: number | undefined;
  const progress = (page: PageOf<AuditEvent>, seen: number): void => {
    total ??= page.total;
    if (total !== undefined && total >= PROGRESS_FROM)
      process.stderr.write(`gatehouse: exported ${seen} of ${total} entries\n`);
  };
  const out: Writable = o.out ? createWriteStream(o.out, { mode: 0o600 }) : process.stdout;
  let count = 0;
  try {
    if (o.format === 'csv') await write(out, csvLine([...CSV_COLUMNS]));
    for await (const e of eachItem(fetch, EXPORT_PAGE, undefined, progress)) {
      count++;
      await write(
        out,
        o.format === 'csv'
          ? csvLine([
              String(e.seq),
              e.at,
              e.type,
              e.sessionId ?? '',
              e.agent ?? '',
              e.requestId ?? '',
              JSON.stringify(e.data),
            ])
          : `${JSON.stringify(e)}\n`,
      );
    }
  } finally {
    if (o.out) await new Promise<void>((resolve) => out.end(resolve));
  }
  if (o.out) console.error(`gatehouse: wrote ${count} audit entries to ${o.out}`);
}
