import type { Command } from 'commander';
import type { RetentionPruneResult } from '../../../shared/protocol/retention-methods';
import { printJson, withAdmin } from '../run-admin';

const KIND_LABELS = [
  ['requests', 'decided requests'],
  ['audit', 'audit entries'],
  ['transcript', 'transcript entries'],
  ['sessions', 'ended sessions'],
] as const;

/** What a run deleted (or would), one line per kind. */
export function formatPrune(r: RetentionPruneResult): string {
  const day = (s?: string) => s?.slice(0, 10) ?? '';
  const lines = [
    `${r.dryRun ? 'Would delete' : 'Deleted'} history older than ${r.days} days (before ${day(r.cutoff)}):`,
  ];
  for (const [kind, label] of KIND_LABELS) {
    const k = r[kind];
    const span = k.count ? `  ${day(k.oldest)} … ${day(k.newest)}` : '';
    lines.push(`  ${String(k.count).padStart(8)} ${label.padEnd(19)}${span}`);
  }
  lines.push(`  ${String(r.transcriptFiles).padStart(8)} transcript files`);
  if (!r.dryRun) lines.push(`Database file gave back ${(r.bytesFreed / 1048576).toFixed(1)} MB.`);
  lines.push('Requests still waiting for you are never deleted.');
  return lines.join('\n');
}

/** `gatehouse prune [--dry-run]`: retention (`retention.days`) now, or what it would delete. */
export function registerPruneCommand(program: Command): void {
  program
    .command('prune')
    .description(
      'Delete decided requests, audit entries and transcripts older than retention.days now (Gatehouse also does it in the background)',
    )
    .option('--dry-run', 'only say what would be deleted (counts per kind, oldest and newest)')
    .option('--json', 'print JSON')
    .action((o: { dryRun?: boolean; json?: boolean }) =>
      withAdmin(async (c) => {
        const r = await c.call('retention.prune', { dryRun: Boolean(o.dryRun) });
        if (o.json) return printJson(r);
        console.log(formatPrune(r));
      }),
    );
}
