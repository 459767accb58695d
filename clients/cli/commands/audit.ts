import type { Command } from 'commander';
import type {
  AuditVerifyHubResult,
  AuditVerifyResult,
} from '../../../shared/protocol/audit-chain-methods';
import { formatLocalDateTime } from '../../../shared/time-format';
import { Exit, printJson, withAdmin } from '../run-admin';

/** What `audit verify` found, for a person: the verdict first, then each finding with its place. */
export function formatAuditVerify(r: AuditVerifyResult): string {
  const lines = [
    r.ok
      ? `Audit trail intact: ${r.checked} entries checked against their chain and ${r.checkpoints} signed checkpoints.`
      : `Audit trail TAMPERED: ${r.findings.length} finding(s) in ${r.checked} entries checked.`,
  ];
  for (const f of r.findings)
    lines.push(
      `  ${f.kind.padEnd(10)} entry ${f.seq}${f.at ? ` (${formatLocalDateTime(f.at)})` : ''}: ${f.detail}`,
    );
  if (r.startsAfter !== undefined)
    lines.push(
      `History up to entry ${r.startsAfter} was pruned by retention, in whole signed segments.`,
    );
  if (r.unsealed)
    lines.push(
      `${r.unsealed} newer entries are not chained yet (they are sealed once they can no longer change).`,
    );
  if (r.lastCheckpointAt) lines.push(`Last signed: ${formatLocalDateTime(r.lastCheckpointAt)}.`);
  lines.push(`Signing key: ${r.publicKey}`);
  return lines.join('\n');
}

/** The hub's part of `audit verify --hub`: what was compared, or why nothing was. */
export function formatHubPart(h: AuditVerifyHubResult['hub']): string {
  if (!h.reachable) return `Hub: not checked: ${h.error ?? 'the hub could not be asked'}.`;
  return h.checkpoints === 0
    ? `Hub ${h.url ?? ''}: holds no checkpoints of this machine yet.`
    : `Hub ${h.url ?? ''}: ${h.checkpoints} checkpoint(s) of this machine compared, through entry ${h.throughSeq ?? 0}.`;
}

/** `gatehouse audit verify`: checks the audit trail against its hash chain and signed checkpoints. */
export function registerAuditCommands(program: Command): void {
  const audit = program
    .command('audit')
    .description("The audit trail's integrity (read it with `gatehouse log --audit`)");
  audit
    .command('verify')
    .description(
      'Check every audit entry against its hash chain and the signed checkpoints; exits 1 and says where when an entry was changed, deleted, added or moved',
    )
    .option('--json', 'print JSON')
    // `--hub` is the program's own option (hub-target.ts), given here without a URL.
    .addHelpText(
      'after',
      '\n  --hub   also check the chain against the checkpoints the joined hub keeps for this machine\n          (exit 1: they disagree; exit 2: not joined, or the hub out of reach)',
    )
    .action((o: { json?: boolean }, cmd: Command) =>
      withAdmin(async (c) => {
        if ((cmd.optsWithGlobals() as { hub?: unknown }).hub === true) {
          const r = await c.call('audit.verifyHub', {});
          if (o.json) printJson(r);
          else console.log(`${formatAuditVerify(r)}\n${formatHubPart(r.hub)}`);
          if (!r.ok) process.exitCode = Exit.error;
          else if (!r.hub.reachable) {
            if (!o.json) console.error(`gatehouse: ${r.hub.error ?? 'the hub could not be asked'}`);
            process.exitCode = Exit.notRunning;
          }
          return;
        }
        const r = await c.call('audit.verify', {});
        if (o.json) printJson(r);
        else console.log(formatAuditVerify(r));
        if (!r.ok) process.exitCode = Exit.error;
      }),
    );
}
