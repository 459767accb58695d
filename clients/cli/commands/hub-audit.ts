import type { Command } from 'commander';
import { AuditVerifyResult } from '../../../shared/protocol/audit-chain-methods';
import { resolveHome } from '../../../shared/node/socket-path';
import { Exit } from '../run-admin';
import { formatAuditVerify } from './audit';
import { callHubAdmin, localHubAdmin } from './hub-http-client';

/**
 * `gatehouse hub audit verify` (on the hub's host, with its admin token): the hub walks its
 * own audit chain in its database and says where a row was changed, deleted or moved.
 */
export function registerHubAuditCommands(
  hub: Command,
  run: (fn: () => Promise<void>) => Promise<void>,
): void {
  hub
    .command('audit')
    .description("The hub's own audit trail")
    .command('verify')
    .description(
      "Check every entry of the hub's audit against its hash chain and the hub's signed checkpoints; exits 1 and says where when one was changed, deleted or moved",
    )
    .option('--json', 'print JSON')
    .option('--url <url>', 'the hub (default: the one running with this GATEHOUSE_HOME)')
    .action((o: { json?: boolean; url?: string }) =>
      run(async () => {
        const admin = localHubAdmin(resolveHome(), o.url);
        const r = AuditVerifyResult.parse(
          await callHubAdmin(admin, 'POST', '/api/admin/audit/verify', {}),
        );
        if (o.json) console.log(JSON.stringify(r, null, 2));
        else console.log(formatAuditVerify(r).replace('Audit trail', "The hub's audit trail"));
        if (!r.ok) process.exitCode = Exit.error;
      }),
    );
}
