import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { resolveHome } from '../../../shared/node/socket-path';
import { UsageError } from '../run-admin';
import { callHubAdmin, localHubAdmin } from './hub-http-client';

const Shown = z.object({
  enabled: z.boolean(),
  providerName: z.string().optional(),
  issuer: z.string().optional(),
  clientId: z.string().optional(),
  clientSecretSet: z.boolean().optional(),
  groupsClaim: z.string().optional(),
  scopes: z.string().optional(),
  newPeople: z.string().optional(),
  adminGroup: z.string().optional(),
  redirectUrl: z.string(),
});

/** The client secret from a file (`-`: stdin), never from the command line (ps shows it). */
function readSecret(file: string): string {
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read --client-secret-file ${file}: ${(error as Error).message}`);
  }
  const secret = text.trim();
  if (!secret) throw new UsageError(`--client-secret-file ${file} is empty`);
  return secret;
}

function print(s: z.infer<typeof Shown>): void {
  if (!s.enabled) {
    console.log('Single sign-on is off: people sign in with the links of gatehouse hub user add.');
    console.log(`Redirect URL to register at the provider: ${s.redirectUrl}`);
    return;
  }
  console.log(`Single sign-on is on: "Sign in with ${s.providerName}"`);
  console.log(`  issuer         ${s.issuer}`);
  console.log(`  client id      ${s.clientId}`);
  console.log(`  client secret  ${s.clientSecretSet ? 'set (never shown)' : 'not set'}`);
  console.log(`  redirect URL   ${s.redirectUrl}`);
  console.log(`  scopes         ${s.scopes}`);
  console.log(`  groups claim   ${s.groupsClaim}`);
  console.log(
    `  new people     ${s.newPeople === 'invite' ? 'only those invited (gatehouse hub sso invite)' : `anyone the provider signs in, as ${s.newPeople}`}`,
  );
  console.log(`  admin group    ${s.adminGroup ?? 'none (roles are set on the hub)'}`);
}

/**
 * `gatehouse hub sso set|show|off|invite`: single sign-on with OpenID Connect, set on the
 * hub's host with its admin token (main/hub/hub-sso-api.ts checks and keeps it).
 */
export function registerHubSsoCommands(
  hub: Command,
  run: (fn: () => Promise<void>) => Promise<void>,
): void {
  const url = '--url <url>';
  const urlHelp = 'the hub (default: the one running with this GATEHOUSE_HOME)';
  const sso = hub
    .command('sso')
    .description('Single sign-on with OpenID Connect for the team dashboard');

  sso
    .command('set')
    .description(
      'Turn single sign-on on (or change it); the redirect URL to register is <public URL>/auth/oidc/callback',
    )
    .requiredOption('--issuer <url>', "the provider's issuer URL (https://…)")
    .requiredOption('--client-id <id>', "the hub's client id at the provider")
    .option(
      '--client-secret-file <file>',
      'a file holding the client secret (- reads stdin); kept when left out and the client is the same',
    )
    .option('--provider-name <name>', 'shown on the sign-in button: "Sign in with NAME"')
    .option('--groups-claim <claim>', 'the claim listing the groups', 'groups')
    .option('--scopes <scopes>', 'the scopes to ask for', 'openid email profile')
    .option(
      '--new-people <policy>',
      'who a first sign-in may be: invite (only people invited with `hub sso invite`), viewer or approver (anyone the provider signs in, made with that role)',
      'invite',
    )
    .option('--admin-group <group>', "the provider's group whose members are the hub's admins")
    .option(url, urlHelp)
    .action(
      (o: {
        issuer: string;
        clientId: string;
        clientSecretFile?: string;
        providerName?: string;
        groupsClaim: string;
        scopes: string;
        newPeople: string;
        adminGroup?: string;
        url?: string;
      }) =>
        run(async () => {
          const body = {
            issuer: o.issuer,
            clientId: o.clientId,
            groupsClaim: o.groupsClaim,
            scopes: o.scopes,
            newPeople: o.newPeople,
            ...(o.clientSecretFile ? { clientSecret: readSecret(o.clientSecretFile) } : {}),
            ...(o.providerName ? { providerName: o.providerName } : {}),
            ...(o.adminGroup ? { adminGroup: o.adminGroup } : {}),
          };
          const admin = localHubAdmin(resolveHome(), o.url);
          print(Shown.parse(await callHubAdmin(admin, 'POST', '/api/admin/sso', body)));
        }),
    );

  sso
    .command('show')
    .description('Show the single sign-on settings (never the client secret)')
    .option('--json', 'print JSON')
    .option(url, urlHelp)
    .action((o: { json?: boolean; url?: string }) =>
      run(async () => {
        const admin = localHubAdmin(resolveHome(), o.url);
        const shown = Shown.parse(await callHubAdmin(admin, 'GET', '/api/admin/sso'));
        if (o.json) console.log(JSON.stringify(shown, null, 2));
        else print(shown);
      }),
    );

  sso
    .command('off')
    .description('Turn single sign-on off (people already signed in stay signed in)')
    .option(url, urlHelp)
    .action((o: { url?: string }) =>
      run(async () => {
        const admin = localHubAdmin(resolveHome(), o.url);
        const r = z
          .object({ was: z.boolean() })
          .parse(await callHubAdmin(admin, 'POST', '/api/admin/sso/off', {}));
        console.log(r.was ? 'Single sign-on is off.' : 'Single sign-on was not on.');
      }),
    );

  sso
    .command('invite')
    .description(
      'Add a person who signs in with single sign-on: the first sign-in whose verified email is EMAIL becomes them',
    )
    .argument('<email>', 'their email at the provider')
    .requiredOption('--name <name>', 'their name on the hub')
    .requiredOption('--role <role>', 'admin, approver or viewer')
    .option(url, urlHelp)
    .action((email: string, o: { name: string; role: string; url?: string }) =>
      run(async () => {
        const admin = localHubAdmin(resolveHome(), o.url);
        const r = z.object({ name: z.string(), role: z.string(), email: z.string() }).parse(
          await callHubAdmin(admin, 'POST', '/api/admin/sso/invite', {
            email,
            name: o.name,
            role: o.role,
          }),
        );
        console.log(
          `Invited ${r.email} as ${r.name} (${r.role}): they sign in with single sign-on on the hub's page.`,
        );
      }),
    );
}
