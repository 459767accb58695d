import type { Command } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { MachineName, PersonName, PersonRole } from '../../../shared/hub-protocol';
import { hubLinkFiles } from '../../../shared/node/hub-files';
import { resolveHome } from '../../../shared/node/socket-path';
import { UsageError } from '../run-admin';
import { callHubAdmin, localHubAdmin } from './hub-http-client';
import { registerHubAuditCommands } from './hub-audit';
import { parsed, run } from './hub-command-run';
import { registerHubTeamCommands } from './hub-team';
import { loginToHub } from './hub-login';
import { addNotifyMeCommand } from './hub-notify-me';
import { joinHub, leaveHub, readHubLink } from './hub-join';
import { registerHubSsoCommands } from './hub-sso';
import { registerHubPolicyCommands } from './hub-policy';
import { registerHubWebhookAllowCommands } from './hub-webhook-allow';

/** The PEM text of a `--ca FILE`, checked to look like a certificate. */
function readCa(file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read --ca ${file}: ${(error as Error).message}`);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----'))
    throw new UsageError(`--ca ${file} is not a PEM certificate`);
  return pem;
}

/** One line from stdin (a token pasted at the prompt, or piped in). */
async function askLine(question: string): Promise<string | undefined> {
  process.stderr.write(question);
  const rl = createInterface({ input: process.stdin, terminal: false });
  try {
    for await (const line of rl) return line.trim() || undefined;
    return undefined;
  } finally {
    rl.close();
  }
}

const MachineRow = z.object({
  name: z.string(),
  joinedAt: z.number(),
  revokedAt: z.number().optional(),
  lastSeenAt: z.number().optional(),
  version: z.string().optional(),
  owner: z.string().optional(),
});

/**
 * `gatehouse hub …`: the hub's admin commands (on its host), a machine's join, status and
 * leave, and a person's login (the queue commands take `--hub URL`: hub-target.ts). `gatehouse hub` itself (the server) is registered by
 * the entry point (main/gatehouse-cli.ts), which may load the hub; these only talk HTTP.
 */
export function registerHubCommands(program: Command): void {
  const hub =
    program.commands.find((c) => c.name() === 'hub') ??
    program.command('hub').description('The team hub: one queue for agents on many machines');
  hub.addHelpText(
    'after',
    `
On the hub's host (with its GATEHOUSE_HOME): invite, machines, revoke, user add, group, rule.
On a machine: join, status, leave. A person: login, then gatehouse --hub URL list|show|approve|deny|review.`,
  );
  const url = '--url <url>';
  const urlHelp = 'the hub (default: the one running with this GATEHOUSE_HOME)';

  hub
    .command('invite')
    .description('Make a single-use, expiring join code for a machine')
    .requiredOption('--machine <name>', 'the name the machine will have on the hub')
    .option('--ttl <minutes>', 'how long the code stays valid', '60')
    .option('--owner <person>', 'the person who owns the machine (a team rule may leave them out)')
    .option(url, urlHelp)
    .action((o: { machine: string; ttl: string; owner?: string; url?: string }) =>
      run(async () => {
        const machine = parsed(MachineName, o.machine, '--machine');
        const ttlMinutes = parsed(z.coerce.number().int().positive().max(10080), o.ttl, '--ttl');
        const owner = o.owner === undefined ? undefined : parsed(PersonName, o.owner, '--owner');
        const admin = localHubAdmin(resolveHome(), o.url);
        const r = z.object({ code: z.string(), expiresAt: z.number() }).parse(
          await callHubAdmin(admin, 'POST', '/api/admin/invite', {
            machine,
            ttlMinutes,
            ...(owner ? { owner } : {}),
          }),
        );
        console.log(
          `Join code for ${machine} (single use, until ${new Date(r.expiresAt).toISOString()}):`,
        );
        console.log(r.code);
        console.log(`On the machine: gatehouse hub join ${admin.url} ${r.code}`);
      }),
    );

  hub
    .command('machines')
    .description('List the machines that joined')
    .option('--json', 'print JSON')
    .option(url, urlHelp)
    .action((o: { json?: boolean; url?: string }) =>
      run(async () => {
        const admin = localHubAdmin(resolveHome(), o.url);
        const { machines } = z
          .object({ machines: z.array(MachineRow) })
          .parse(await callHubAdmin(admin, 'GET', '/api/admin/machines'));
        if (o.json) return console.log(JSON.stringify(machines, null, 2));
        if (machines.length === 0)
          return console.log('No machines joined yet (gatehouse hub invite --machine NAME).');
        for (const m of machines)
          console.log(
            `${m.name}  ${m.revokedAt ? 'revoked' : 'joined'}  last seen ${m.lastSeenAt ? new Date(m.lastSeenAt).toISOString() : 'never'}${m.version ? `  v${m.version}` : ''}${m.owner ? `  owner ${m.owner}` : ''}`,
          );
      }),
    );

  hub
    .command('revoke')
    .description('Revoke a machine: its link is closed and refused from then on')
    .argument('<name>', 'the machine')
    .option(url, urlHelp)
    .action((name: string, o: { url?: string }) =>
      run(async () => {
        const machine = parsed(MachineName, name, 'machine');
        const admin = localHubAdmin(resolveHome(), o.url);
        await callHubAdmin(admin, 'POST', '/api/admin/revoke', { machine });
        console.log(`Revoked ${machine}.`);
      }),
    );

  const user = hub.command('user').description('People on the hub');
  user
    .command('link')
    .description('Print a new single-use sign-in link for someone already on the hub')
    .argument('<name>', 'their name')
    .option('--bootstrap', 'with single sign-on on: a link for an admin all the same')
    .option(url, urlHelp)
    .action((name: string, o: { bootstrap?: boolean; url?: string }) =>
      run(async () => {
        const admin = localHubAdmin(resolveHome(), o.url);
        const r = z.object({ token: z.string(), expiresAt: z.number() }).parse(
          await callHubAdmin(admin, 'POST', '/api/admin/people/link', {
            name: parsed(PersonName, name, 'name'),
            ...(o.bootstrap ? { bootstrap: true } : {}),
          }),
        );
        console.log(
          `Sign-in link for ${name}; it works once, until ${new Date(r.expiresAt).toISOString()}:`,
        );
        console.log(`${admin.url}/#signin=${r.token}`);
      }),
    );
  user
    .command('reset-passkeys')
    .description(
      "Remove someone's passkeys and end their browser sessions (a lost passkey); they add one again after signing in with a new link",
    )
    .argument('<name>', 'their name')
    .option(url, urlHelp)
    .action((name: string, o: { url?: string }) =>
      run(async () => {
        const admin = localHubAdmin(resolveHome(), o.url);
        const r = z.object({ removed: z.number(), sessionsEnded: z.number() }).parse(
          await callHubAdmin(admin, 'POST', '/api/admin/people/passkeys/reset', {
            name: parsed(PersonName, name, 'name'),
          }),
        );
        console.log(
          `Removed ${r.removed} passkey(s) of ${name} and ended ${r.sessionsEnded} browser session(s).`,
        );
      }),
    );
  user
    .command('add')
    .description(
      'Add a person and print their single-use sign-in link for the team dashboard (or, with --token, a personal token for the CLI)',
    )
    .argument('<name>', 'their name, recorded with each decision as hub:<name>')
    .requiredOption('--role <role>', 'admin, approver or viewer')
    .option('--token', 'print a personal token for the CLI instead of a sign-in link')
    .option('--bootstrap', 'with single sign-on on: a sign-in link for an admin all the same')
    .option(url, urlHelp)
    .action(
      (name: string, o: { role: string; token?: boolean; bootstrap?: boolean; url?: string }) =>
        run(async () => {
          const body = {
            name: parsed(PersonName, name, 'name'),
            role: parsed(PersonRole, o.role, '--role'),
            ...(o.token ? { token: true } : {}),
            ...(o.bootstrap ? { bootstrap: true } : {}),
          };
          const admin = localHubAdmin(resolveHome(), o.url);
          const r = z
            .object({ token: z.string(), expiresAt: z.number().optional() })
            .parse(await callHubAdmin(admin, 'POST', '/api/admin/people', body));
          if (o.token) {
            console.log(`Personal token for ${body.name} (${body.role}); it is shown once:`);
            console.log(r.token);
            return;
          }
          console.log(
            `Sign-in link for ${body.name} (${body.role}); it works once, until ${new Date(r.expiresAt ?? 0).toISOString()}:`,
          );
          console.log(`${admin.url}/#signin=${r.token}`);
        }),
    );

  registerHubSsoCommands(hub, run);

  hub
    .command('notify')
    .description(
      "Show or set the channels the hub notifies approvers through (webhook, ntfy, email: the machine's notification settings, as JSON)",
    )
    .option(
      '--config <file>',
      'set them from this JSON file: { "webhook": {…}, "ntfy": {…}, "email": {…} }',
    )
    .option(url, urlHelp)
    .action((o: { config?: string; url?: string }) =>
      run(async () => {
        const admin = localHubAdmin(resolveHome(), o.url);
        let body: unknown;
        if (o.config) {
          try {
            body = JSON.parse(readFileSync(o.config, 'utf8'));
          } catch (error) {
            throw new UsageError(`--config ${o.config}: ${(error as Error).message}`);
          }
        }
        const r = await callHubAdmin(
          admin,
          body === undefined ? 'GET' : 'POST',
          '/api/admin/notify',
          body,
        );
        console.log(JSON.stringify(r, null, 2));
      }),
    );

  registerHubAuditCommands(hub, run);
  registerHubWebhookAllowCommands(hub, run);
  registerHubTeamCommands(hub);
  registerHubPolicyCommands(hub);

  hub
    .command('join')
    .description('Join this machine to a hub with a join code (outbound only: no port is opened)')
    .argument('<url>', 'the hub, e.g. https://hub.example.com')
    .argument('<code>', 'the code from `gatehouse hub invite` on the hub')
    .option('--ca <file>', "a CA certificate (PEM) to check the hub's TLS certificate against")
    .action((u: string, code: string, o: { ca?: string }) =>
      run(async () => {
        const r = await joinHub(resolveHome(), u, code, readCa(o.ca));
        console.log(
          `Joined ${r.url} as ${r.machineName}. The running daemon links to it within seconds.`,
        );
      }),
    );

  hub
    .command('status')
    .description('Show the hub this machine joined and its link')
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) =>
      run(async () => {
        const home = resolveHome();
        const link = readHubLink(home);
        const stateFile = hubLinkFiles(home).state;
        const state: unknown = existsSync(stateFile)
          ? JSON.parse(readFileSync(stateFile, 'utf8'))
          : undefined;
        if (o.json) return console.log(JSON.stringify({ joined: !!link, link, state }, null, 2));
        if (!link) return console.log('Not joined to a hub (gatehouse hub join URL CODE).');
        console.log(`Joined ${link.url} as ${link.machineName} since ${link.joinedAt}.`);
        const s = state as
          { connected?: boolean; since?: string; error?: string; outbox?: number } | undefined;
        console.log(
          s
            ? `Link: ${s.connected ? 'connected' : 'not connected'} since ${s.since ?? '?'}${s.error ? ` (${s.error})` : ''}; ${s.outbox ?? 0} waiting to be published`
            : 'Link: the daemon has not reported (is it running?)',
        );
      }),
    );

  hub
    .command('leave')
    .description("Leave the hub: forget its address and this machine's key")
    .action(() =>
      run(async () => {
        const left = leaveHub(resolveHome());
        console.log(left ? `Left ${left.url}.` : 'Not joined to a hub.');
      }),
    );

  addNotifyMeCommand(hub, run);

  hub
    .command('login')
    .description(
      "Keep a person's token for a hub (0600 in GATEHOUSE_HOME), for `gatehouse --hub URL list|show|approve|deny|review`",
    )
    .argument('<url>', 'the hub, e.g. https://hub.example.com')
    .option('--token <token>', 'your personal token (from `gatehouse hub user add`)')
    .option('--code <code>', 'the code (or the whole link) of your sign-in link')
    .option('--ca <file>', "a CA certificate (PEM) to check the hub's TLS certificate against")
    .action((u: string, o: { token?: string; code?: string; ca?: string }) =>
      run(async () => {
        if (o.token && o.code) throw new UsageError('give --token or --code, not both');
        const secret = o.token ?? o.code ?? (await askLine('Personal token or sign-in link: '));
        if (!secret) throw new UsageError('no token given');
        const isToken = o.token !== undefined || (!o.code && secret.startsWith('ghp_'));
        const me = await loginToHub(
          resolveHome(),
          u,
          isToken ? { token: secret } : { code: secret },
          readCa(o.ca),
        );
        console.log(`Logged in to ${me.url} as ${me.name} (${me.role}).`);
      }),
    );
}
