import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preToolUse, runClaudeHook } from '../../support/claude-hook';
import { TestDaemon } from '../../support/daemon';
import { homeTree } from '../../support/hook-home';

/**
 * Paths as bash expands them. Braces come before `~` and `$…`: `cat
 * {~/.local/share/gatehouse,x}/admin.token` reads the admin token, and Gatehouse, expanding
 * braces last, took `~/…` for a folder named `~` in the project and let the read through.
 * Patterns are bash's (`!*`, `[!x]`), and a word is what bash reads as one. Real hook processes against a real daemon
 * whose data folder is in the test's home; every call the hook allows is then run with bash
 * in the project, and what it printed is checked for the token and the project's secret.
 */
const { root, home, data, project } = homeTree('gatehouse-path-expansion-');
const SECRET = 'API_KEY=sk-test-brace-secret';
let d: TestDaemon;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  mkdirSync(project, { recursive: true });
  spawnSync('git', ['init', '-q', project]);
  writeFileSync(join(project, '.env'), `${SECRET}\n`);
  writeFileSync(join(project, 'README.md'), 'hello\n');
  // A checkout may hold a link of any name: one named as a brace expression, to the data folder.
  symlinkSync(data, join(project, '{x,y}'));
  symlinkSync(data, join(project, '!x'));
  symlinkSync(data, join(project, 'a!x'));
  symlinkSync(data, join(project, ']x'));
  symlinkSync(join(data, 'admin.token'), join(project, '$'));
  // More folders than Gatehouse checks for one pattern, one of them a link to the data folder.
  for (let i = 0; i < 80; i++) mkdirSync(join(project, 'many', `d${i}`), { recursive: true });
  symlinkSync(data, join(project, 'many', 'zz'));
  d = await TestDaemon.start({ HOME: home, GATEHOUSE_HOME: data }, ['--no-dashboard']);
  env = { ...d.env, HOME: home, GATEHOUSE_HOOK_WAIT_MS: '100', GATEHOUSE_HOOK_FALLBACK: 'deny' };
}, 60_000);

afterAll(async () => {
  await d?.stop();
  rmSync(root, { recursive: true, force: true });
});

/** What the command prints run with bash in the project, as the agent would run it. */
const perform = (command: string): string =>
  spawnSync('bash', ['-c', command], {
    cwd: project,
    env: { ...process.env, HOME: home },
    encoding: 'utf8',
  }).stdout;

const token = (): string => readFileSync(join(data, 'admin.token'), 'utf8').trim();

/** The hook's decision, and what the call printed of the token or the secret if it was allowed. */
async function attempt(
  command: string,
): Promise<{ decision: string | undefined; leaked: string[] }> {
  const r = await runClaudeHook(env, preToolUse('Bash', { command }, { cwd: project }));
  const leaked: string[] = [];
  if (r.decision === 'allow') {
    const printed = perform(command);
    if (printed.includes(token())) leaked.push('printed the admin token');
    if (printed.includes(SECRET)) leaked.push('printed .env');
  }
  return { decision: r.decision, leaked };
}

const many = Array.from({ length: 70 }, (_, i) => `f${i}`).join(',');

describe('paths as bash expands them (real hook, real daemon, calls performed)', () => {
  const attacks = [
    'cat {~/.local/share/gatehouse,x}/admin.token',
    'cat ~/.local/share/gatehous{e..e}/admin.token',
    'cat .en{v..v}',
    // Past the number of paths checked: every path must be checked, or the call asks.
    `cat {${many},.env}`,
    // Quoted braces stay as written: the link named `{x,y}` is read.
    `cat '{x,y}/admin.token'`,
    // Bash's patterns, not a glob library's: `!*` is every name starting with `!`, `[!x]`
    // anything but `x`.
    'cat !*/admin.token',
    'cat .e[!x]v',
    'cat many/*/admin.token',
    // Words the shell parser splits in two where bash reads one.
    'cat a[\\!]x/admin.token',
    'cat .en[\\v]',
    // Words it leaves out or joins: the file named `$`, or `[` and `]x/admin.token`.
    'cat README.md $',
    'cat [ ]x/admin.token',
  ];

  it('calibration: performed without the hook, each prints the token or the secret', () => {
    for (const command of attacks)
      expect(`${command}: ${perform(command)}`).toMatch(new RegExp(`${token()}|${SECRET}`));
  });

  it.each(attacks)('%s asks', async (command) => {
    const { decision, leaked } = await attempt(command);
    expect(leaked).toEqual([]);
    expect(decision).not.toBe('allow');
  });

  it('a brace expression in the project is still an ordinary read', async () => {
    const { decision } = await attempt('cat {README,CHANGES}.md');
    expect(decision).toBe('allow');
  });
});
