import type { Command } from 'commander';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { ProjectTrustEntry } from '../../../shared/protocol/trust-methods';
import { table } from '../format';
import { Exit, printJson, withAdmin } from '../run-admin';

const STATE_TEXT: Record<ProjectTrustEntry['state'], string> = {
  trusted: 'trusted',
  untrusted: 'not trusted',
  edited: 'edited since it was trusted: not trusted',
  missing: 'file missing',
  invalid: 'invalid',
};

/** What the person reads before trusting: the file, its hash, what it allows, what it limits. */
export function describeEntry(p: ProjectTrustEntry): string {
  const lines = [`Project policy ${p.file}`, `  state:  ${STATE_TEXT[p.state]}`];
  if (p.sha256) lines.push(`  sha256: ${p.sha256}`);
  if (p.error) lines.push(`  error:  ${p.error}`);
  const s = p.summary;
  if (s) {
    lines.push('It would allow without asking (only once trusted):');
    lines.push(...(s.allows.length ? s.allows.map((a) => `  - ${a}`) : ['  (nothing)']));
    lines.push('It restricts (applies whether trusted or not):');
    lines.push(...(s.restricts.length ? s.restricts.map((r) => `  - ${r}`) : ['  (nothing)']));
  }
  return lines.join('\n');
}

async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = (await rl.question(question)).trim().toLowerCase();
    return answer === 'y' || answer === 'yes';
  } finally {
    rl.close();
  }
}

/** `gatehouse trust [DIR]`, `gatehouse trust --list`, `gatehouse untrust DIR`. */
export function registerTrustCommands(program: Command): void {
  program
    .command('trust')
    .description(
      "Trust a project's .gatehouse.toml: show what it would allow without asking and what it restricts, then confirm",
    )
    .argument('[dir]', 'project directory (default: the current directory)')
    .option('--yes', 'trust without asking (for scripts)')
    .option('--list', 'list the projects whose policy files Gatehouse has seen or trusts')
    .option('--json', 'print JSON')
    .addHelpText(
      'after',
      `
A project's .gatehouse.toml can restrict at once (require_permission, blocked_commands,
allowed_files, allowed_commands as a limit, max_risk). What it would allow without asking
(allow_without_permission, allowed_commands, writes inside allowed_files) applies only
after you trust its exact content here; any edit voids the trust until you trust it again.

Exit codes: 0 trusted (or listed), 1 not confirmed or error, 2 Gatehouse not running,
3 no policy file in DIR, 4 invalid policy file or input.`,
    )
    .action((dirArg: string | undefined, o: { yes?: boolean; list?: boolean; json?: boolean }) =>
      withAdmin(async (c) => {
        if (o.list) {
          const { projects } = await c.call('trust.list', {});
          if (o.json) return printJson(projects);
          if (!projects.length) return void console.log('No project policy files seen yet.');
          console.log(
            table(
              ['STATE', 'PROJECT', 'WOULD ALLOW WITHOUT ASKING'],
              projects.map((p) => [
                STATE_TEXT[p.state],
                p.dir,
                p.summary?.allows.join('; ') || '—',
              ]),
            ),
          );
          return;
        }
        const dir = resolve(dirArg ?? process.cwd());
        const { project } = await c.call('trust.preview', { dir });
        if (!o.json) console.log(describeEntry(project));
        if (project.state === 'trusted') {
          if (o.json) printJson(project);
          else console.log('Already trusted: nothing to do.');
          return;
        }
        if (!project.sha256) throw new Error(`cannot read ${project.file}`);
        if (!o.yes) {
          if (!process.stdin.isTTY) {
            console.error(
              'gatehouse: not a terminal, so nothing was trusted; run it in a terminal to confirm, or pass --yes',
            );
            process.exitCode = Exit.error;
            return;
          }
          if (!(await confirm(`Trust this content of ${project.file}? [y/N] `))) {
            console.error('gatehouse: not trusted.');
            process.exitCode = Exit.error;
            return;
          }
        }
        const { project: trusted } = await c.call('trust.add', {
          dir: project.dir,
          sha256: project.sha256,
          via: 'cli',
        });
        if (o.json) return printJson(trusted);
        console.log(
          `Trusted ${trusted.file} (sha256 ${trusted.sha256?.slice(0, 12)}…): what it allows now applies. Any edit voids this trust.`,
        );
      }),
    );

  program
    .command('untrust')
    .description("Withdraw trust from a project's .gatehouse.toml; only its restrictions apply")
    .argument('<dir>', 'project directory')
    .action((dirArg: string) =>
      withAdmin(async (c) => {
        const dir = resolve(dirArg);
        await c.call('trust.remove', { dir, via: 'cli' });
        console.log(`No longer trusted: ${dir}/.gatehouse.toml (its restrictions still apply).`);
      }),
    );
}
