import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { preToolUse, runClaudeHook } from '../../support/claude-hook';
import { runCli, TestDaemon, waitForPending } from '../../support/daemon';

/**
 * An approval covers the call where the person saw it run. A late approval ("exactly this,
 * once") of `rm -rf build` given for the project was, until the run directory counted, used
 * by the same command run anywhere else: an agent moves its next call (its shell keeps a
 * `cd`, OpenCode's `workdir`, Gemini CLI's `dir_path`) and the grant deleted the home
 * folder's `build`. Real hook processes against a real daemon; every call the hook allows is
 * then run with bash where the agent would run it.
 */
const root = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-approval-dir-')));
const home = join(root, 'home');
const project = join(home, 'code/app');
let d: TestDaemon;
let admin: AdminClient;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  mkdirSync(project, { recursive: true });
  // A repository: the session's project is its root, wherever in it the agent's shell is.
  spawnSync('git', ['init', '-q', project]);
  d = await TestDaemon.start({ HOME: home }, ['--no-dashboard']);
  admin = await d.admin();
  env = { ...d.env, HOME: home, GATEHOUSE_HOOK_FALLBACK: 'deny' };
}, 60_000);

afterAll(async () => {
  admin?.close();
  await d?.stop();
  rmSync(root, { recursive: true, force: true });
});

/** A folder with `build/keep` in it; returns the file, whose loss shows a delete ran there. */
function withBuild(dir: string, name = 'build'): string {
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(join(dir, name, 'keep'), 'keep\n');
  return join(dir, name, 'keep');
}

const wait = (ms: number) => ({ GATEHOUSE_HOOK_WAIT_MS: String(ms) });

/** Runs a command the hook allowed with bash in `cwd`, as the agent would (`~` is the test's home). */
const perform = (command: string, cwd: string): void =>
  void spawnSync('bash', ['-c', command], { cwd, env: { ...process.env, HOME: home } });

/** A Claude Code Bash call in `cwd` (where its shell is after a `cd`); run there when allowed. */
async function claude(command: string, cwd: string, session: string, waitMs = 300) {
  const r = await runClaudeHook(
    { ...env, ...wait(waitMs) },
    preToolUse('Bash', { command }, { cwd, session }),
  );
  if (r.decision === 'allow') perform(command, cwd);
  return r;
}

/** An OpenCode bash call with its own `workdir` (resolved against the project); run when allowed. */
async function opencode(command: string, workdir: string | undefined, waitMs = 300) {
  const payload = {
    event: 'tool.execute.before',
    tool: 'bash',
    sessionID: 'approval-dir-opencode',
    callID: `call_${Math.random().toString(36).slice(2)}`,
    args: { command, ...(workdir !== undefined ? { workdir } : {}) },
    directory: project,
  };
  const r = await runCli(
    { ...env, ...wait(waitMs) },
    ['hook', 'opencode'],
    JSON.stringify(payload),
  );
  const out = JSON.parse(r.stdout) as { decision: string; reason: string };
  const dir = workdir ? resolve(project, workdir) : project;
  if (out.decision === 'allow') perform(command, dir);
  return out;
}

/** The newest timed-out request for the command, approved late by the person (a grant). */
async function approveLate(command: string, agent: string): Promise<void> {
  const { requests } = await admin.call('requests.query', { limit: 100 });
  const late = requests.find(
    (r) => r.command === command && r.agent === agent && r.status === 'timed_out',
  );
  expect(late, `a timed-out request for ${command}`).toBeDefined();
  const cli = await d.cli(['approve', late!.requestId]);
  expect(cli.code, cli.stderr).toBe(0);
}

/**
 * A Claude Code call the person approves while it waits, with `--scope scope`; returns what
 * the CLI printed (the rule or grant it saved). The call is then run where it was asked.
 */
async function approvedWhileWaiting(
  command: string,
  cwd: string,
  session: string,
  scope: 'session' | 'always',
): Promise<string> {
  const asked = claude(command, cwd, session, 20_000);
  const req = await waitForPending(admin, (r) => r.command === command);
  const cli = await d.cli(['approve', req.requestId, '--scope', scope]);
  expect(cli.code, cli.stderr).toBe(0);
  expect((await asked).decision).toBe('allow');
  return cli.stdout;
}

describe('an approval covers the directory the person saw (real hooks, real daemon)', () => {
  it('Claude Code: a late approval in the project does not cover the same command after a `cd` elsewhere', async () => {
    const elsewhere = join(home, 'elsewhere-claude');
    const theirs = withBuild(elsewhere);
    const mine = withBuild(project);
    expect((await claude('rm -rf build', project, 'dir-once')).decision).toBe('deny');
    await approveLate('rm -rf build', 'claude-code');
    const there = await claude('rm -rf build', elsewhere, 'dir-once');
    expect(there.decision, there.reason).toBe('deny');
    expect(existsSync(theirs)).toBe(true);
    // The grant is still there for the call it was given for, and is used up by it.
    const here = await claude('rm -rf build', project, 'dir-once');
    expect(here.decision, here.reason).toBe('allow');
    expect(here.reason).toMatch(/late approval grant/);
    expect(existsSync(mine)).toBe(false);
  });

  it('OpenCode: a late approval in the project does not cover the same command with workdir elsewhere', async () => {
    const elsewhere = join(home, 'elsewhere-opencode');
    const theirs = withBuild(elsewhere);
    withBuild(project);
    expect((await opencode('rm -rf build', undefined)).decision).toBe('deny');
    await approveLate('rm -rf build', 'opencode');
    const there = await opencode('rm -rf build', '../../elsewhere-opencode');
    expect(there.decision, there.reason).toBe('deny');
    expect(existsSync(theirs)).toBe(true);
    const here = await opencode('rm -rf build', undefined);
    expect(here.decision, here.reason).toBe('allow');
  });

  for (const scope of ['session', 'always'] as const) {
    it(`Claude Code: --scope ${scope} given in the project does not cover the command in another folder`, async () => {
      const session = `dir-${scope}`;
      const elsewhere = join(home, `elsewhere-${scope}`);
      const theirs = withBuild(elsewhere);
      withBuild(project);
      await approvedWhileWaiting('rm -rf build', project, session, scope);
      const there = await claude('rm -rf build', elsewhere, session);
      expect(there.decision, there.reason).toBe('deny');
      expect(existsSync(theirs)).toBe(true);
    });
  }

  it("Claude Code: a rule's --path globs are read where the words are opened, after a `cd` too", async () => {
    const session = 'dir-rule';
    const rule = await d.cli([
      'rules',
      'add',
      'delete_files',
      '--path',
      'build/**',
      '--project',
      project,
      '--tier',
      'auto',
      '--any-action',
    ]);
    expect(rule.code, rule.stderr).toBe(0);
    const inHome = withBuild(join(home, 'x'));
    const inSub = withBuild(join(project, 'sub'));
    const mine = withBuild(project);
    // The project's build/keep: the rule covers it.
    const here = await claude('rm -rf build/keep', project, session);
    expect(here.decision, here.reason).toBe('allow');
    expect(existsSync(mine)).toBe(false);
    // The same words after a `cd` in the command, or in a folder the shell is in: not the
    // project's build/, so the rule does not cover them; they ask.
    for (const [command, cwd] of [
      ['cd ~/x && rm -rf build/keep', project],
      ['cd .. && cd .. && cd x; rm -rf build/keep', project],
      // `command`, `builtin` and `time` run the cd in the agent's shell all the same.
      ['command cd ~/x && rm -rf build/keep', project],
      ['builtin cd ~/x; rm -rf build/keep', project],
      ['time cd ~/x; rm -rf build/keep', project],
      ['rm -rf build/keep', join(project, 'sub')],
    ] as const) {
      const r = await claude(command, cwd, session);
      expect(r.decision, `${command} in ${cwd}: ${r.reason}`).toBe('deny');
    }
    expect(existsSync(inHome)).toBe(true);
    expect(existsSync(inSub)).toBe(true);
  });

  it('Claude Code: "always" on `rm -rf dist` in the project does not cover it in a subfolder', async () => {
    const session = 'dir-always-sub';
    const sub = join(project, 'pkg');
    const theirs = withBuild(sub, 'dist');
    withBuild(project, 'dist');
    await approvedWhileWaiting('rm -rf dist', project, session, 'always');
    const there = await claude('rm -rf dist', sub, session);
    expect(there.decision, there.reason).toBe('deny');
    expect(existsSync(theirs)).toBe(true);
  });

  it('Claude Code: "always" asked from a subfolder saves the subfolder\'s path, and covers the call there only', async () => {
    const session = 'dir-always-from-sub';
    const sub = join(project, 'web');
    const rootOut = withBuild(project, 'out');
    const subOut = withBuild(sub, 'out');
    expect(await approvedWhileWaiting('rm -rf out', sub, session, 'always')).toContain(
      'paths web/out',
    );
    expect(existsSync(subOut)).toBe(false);
    withBuild(sub, 'out');
    const again = await claude('rm -rf out', sub, session);
    expect(again.decision, again.reason).toBe('allow');
    expect(again.reason).toMatch(/"always" decision/);
    const atRoot = await claude('rm -rf out', project, session);
    expect(atRoot.decision, atRoot.reason).toBe('deny');
    expect(existsSync(rootOut)).toBe(true);
  });

  it("Claude Code: a rule suggested from approvals in a subfolder names the subfolder's path, and covers the call there only", async () => {
    const session = 'dir-suggested-from-sub';
    const sub = join(project, 'docs');
    const rootSite = withBuild(project, 'site');
    const set = await d.cli(['config', 'set', 'rules.suggestAfterApprovals', '3']);
    expect(set.code, set.stderr).toBe(0);
    for (let i = 0; i < 3; i++) {
      const asked = claude('rm -rf site', sub, session, 20_000);
      const req = await waitForPending(admin, (r) => r.command === 'rm -rf site');
      const cli = await d.cli(['approve', req.requestId]);
      expect(cli.code, cli.stderr).toBe(0);
      expect((await asked).decision).toBe('allow');
    }
    const { suggestions } = await admin.call('suggestions.list', {});
    const suggested = suggestions.find((s) => s.draft.command === 'rm -rf site');
    expect(suggested?.draft.paths).toEqual(['docs/site']);
    const accepted = await d.cli(['suggestions', 'accept', suggested!.key]);
    expect(accepted.code, accepted.stderr).toBe(0);
    const subSite = withBuild(sub, 'site');
    const there = await claude('rm -rf site', sub, session);
    expect(there.decision, there.reason).toBe('allow');
    expect(existsSync(subSite)).toBe(false);
    const atRoot = await claude('rm -rf site', project, session);
    expect(atRoot.decision, atRoot.reason).toBe('deny');
    expect(existsSync(rootSite)).toBe(true);
  });
});
