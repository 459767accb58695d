import type { Command } from 'commander';
import { z } from 'zod';
import { resolveHome } from '../../../shared/node/socket-path';
import { WebhookAllowEntry } from '../../../shared/node/webhook-allow-entry';
import { parsed } from './hub-command-run';
import { UsageError } from '../run-admin';
import { callHubAdmin, localHubAdmin } from './hub-http-client';

const Listed = z.object({ entries: z.array(z.string()) });

function print(entries: string[], json: boolean | undefined): void {
  if (json) return console.log(JSON.stringify({ entries }, null, 2));
  if (entries.length === 0) {
    console.log(
      "The webhook allow-list is empty: a person's webhook may name any host whose addresses are public (no private, loopback or link-local address).",
    );
    return;
  }
  console.log(
    "A person's webhook may name (gatehouse hub webhook-allow remove ENTRY to drop one):",
  );
  for (const e of entries) console.log(`  ${e}`);
}

/**
 * `gatehouse hub webhook-allow [show|add|remove]` on the hub's host: where people's own
 * webhooks may go (main/hub/webhook-allow.ts applies it; main/hub/hub-webhook-allow-api.ts
 * keeps it). Origins, hosts, `*.domain` patterns, and addresses or ranges that may be private.
 */
export function registerHubWebhookAllowCommands(
  hub: Command,
  run: (fn: () => Promise<void>) => Promise<void>,
): void {
  const url = '--url <url>';
  const urlHelp = 'the hub (default: the one running with this GATEHOUSE_HOME)';
  const allow = hub
    .command('webhook-allow')
    .description(
      "Where people's own webhooks may go: origins, hosts, *.domain patterns, addresses or ranges (private, loopback and link-local addresses are refused unless listed)",
    );
  const current = async (o: { url?: string }) => {
    const admin = localHubAdmin(resolveHome(), o.url);
    const { entries } = Listed.parse(await callHubAdmin(admin, 'GET', '/api/admin/webhook-allow'));
    return { admin, entries };
  };

  allow
    .command('show', { isDefault: true })
    .description('Show the list')
    .option('--json', 'print JSON')
    .option(url, urlHelp)
    .action((o: { json?: boolean; url?: string }) =>
      run(async () => print((await current(o)).entries, o.json)),
    );

  allow
    .command('add')
    .description(
      'Allow origins (https://hooks.example.com), hosts, host patterns (*.example.com), addresses or ranges (10.0.0.0/8)',
    )
    .argument('<entries...>', 'what to allow')
    .option(url, urlHelp)
    .action((added: string[], o: { url?: string }) =>
      run(async () => {
        const checked = added.map((e) => parsed(WebhookAllowEntry, e, e));
        const { admin, entries } = await current(o);
        const r = Listed.parse(
          await callHubAdmin(admin, 'POST', '/api/admin/webhook-allow', {
            entries: [...entries, ...checked],
          }),
        );
        print(r.entries, false);
      }),
    );

  allow
    .command('remove')
    .description('Drop entries from the list')
    .argument('<entries...>', 'what to drop, as listed')
    .option(url, urlHelp)
    .action((dropped: string[], o: { url?: string }) =>
      run(async () => {
        const { admin, entries } = await current(o);
        const missing = dropped.filter((d) => !entries.includes(d));
        if (missing.length) throw new UsageError(`not on the list: ${missing.join(', ')}`);
        const r = Listed.parse(
          await callHubAdmin(admin, 'POST', '/api/admin/webhook-allow', {
            entries: entries.filter((e) => !dropped.includes(e)),
          }),
        );
        print(r.entries, false);
      }),
    );
}
