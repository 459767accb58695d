import { createHash } from 'node:crypto';
import { createWriteStream, writeFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import type { Command } from 'commander';
import { Option } from 'commander';
import type { AuditEvent } from '../../../shared/domain';
import type { AdminClient } from '../admin-client';
import { exportHeader, exportRecord } from '../../../shared/export-format';
import { eachItem, write, type PageOf } from '../pages';
import { UsageError, withAdmin } from '../run-admin';
import { registerExportVerifyCommand, signaturePath } from './export-verify';

/** How many entries each call asks for. */
const EXPORT_PAGE = 1000;
/** From this many entries, progress goes to stderr. */
const PROGRESS_FROM = 5000;

interface ExportOptions {
  since?: string;
  until?: string;
  format: 'jsonl' | 'csv';
  out?: string;
  sign?: boolean;
}

/** A date the person typed, as ISO 8601 for the daemon; one that does not parse is refused. */
function isoDate(name: string, text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const ms = Date.parse(text);
  if (Number.isNaN(ms))
    throw new UsageError(`--${name}: "${text}" is not a date (e.g. 2026-01-31)`);
  return new Date(ms).toISOString();
}

/** `gatehouse export`: the audit trail of a time range, as JSON Lines or CSV, signed on request. */
export function registerExportCommand(program: Command): void {
  const command = program
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
    .option(
      '--sign',
      "also write FILE.sig: this Gatehouse's signature of the file (needs --out; check it with `gatehouse export verify FILE`)",
    )
    .action((o: ExportOptions) => withAdmin((c) => exportAudit(c, o)));
  registerExportVerifyCommand(command);
}

async function exportAudit(c: AdminClient, o: ExportOptions): Promise<void> {
  if (o.sign && !o.out)
    throw new UsageError('--sign needs --out FILE (the signature goes beside it)');
  const since = isoDate('since', o.since);
  // A signed export fixes its end now, so the daemon signs the very range written here.
  const until = isoDate('until', o.until) ?? (o.sign ? new Date().toISOString() : undefined);
  const range = { ...(since ? { since } : {}), ...(until ? { until } : {}) };
  const fetch = async (cursor: string | undefined, limit: number): Promise<PageOf<AuditEvent>> => {
    const page = await c.call('audit.query', {
      ...range,
      limit,
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
  const digest = createHash('sha256');
  let count = 0;
  const put = async (text: string) => {
    digest.update(text, 'utf8');
    await write(out, text);
  };
  try {
    const header = exportHeader(o.format);
    if (header) await put(header);
    for await (const e of eachItem(fetch, EXPORT_PAGE, undefined, progress)) {
      count++;
      await put(exportRecord(e, o.format));
    }
  } finally {
    if (o.out) await new Promise<void>((resolve) => out.end(resolve));
  }
  if (o.out) console.error(`gatehouse: wrote ${count} audit entries to ${o.out}`);
  if (o.sign && o.out && until)
    await signFile(c, o.out, o.format, since, until, digest.digest('hex'));
}

/** Asks the daemon to sign the range it holds, and keeps the signature only if it matches the file. */
async function signFile(
  c: AdminClient,
  file: string,
  format: ExportOptions['format'],
  since: string | undefined,
  until: string,
  sha256: string,
): Promise<void> {
  const sig = await c.call('audit.exportSignature', {
    format,
    until,
    ...(since ? { since } : {}),
  });
  if (sig.sha256 !== sha256)
    throw new Error(
      `the audit trail changed while it was exported (retention ran?): ${file} was written but not signed; run the export again`,
    );
  writeFileSync(signaturePath(file), `${JSON.stringify(sig, null, 2)}\n`, { mode: 0o600 });
  console.error(`gatehouse: signed ${file} (${signaturePath(file)})`);
}
