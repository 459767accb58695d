import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { RpcError } from '../../../clients/sdk/rpc-client';
import { CLI, runCli, TestDaemon, waitForPending } from '../../support/daemon';
import { homeTree } from '../../support/hook-home';

/**
 * A shell call that names its own working directory (Gemini CLI's `run_shell_command
 * {dir_path}`, OpenCode's `bash{workdir}`) is judged where it runs, through the real hook
 * process and a real daemon: relative paths that are harmless in the project but name
 * Gatehouse's own files or a secret in that directory ask; what the hook allows is then run
 * with bash in that directory, so a wrong allow shows what it read.
 */
const { root, home, data: ghome, project } = homeTree('gatehouse-rundir-');
const TOKEN = 'not-the-real-token';

let d: TestDaemon;
let admin: AdminClient;
let hookEnv: NodeJS.ProcessEnv;

beforeAll(async () => {
  mkdirSync(join(project, 'src'), { recursive: true });
  writeFileSync(join(project, 'src/a.ts'), 'export const a = 1;\n');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh/id_ed25519'), 'PRIVATE KEY\n');
  spawnSync('git', ['init', '-q', project]);
  d = await TestDaemon.start({ HOME: home, GATEHOUSE_HOME: ghome }, ['--no-dashboard']);
  admin = await d.admin();
  // A decoy of the daemon's token file name in the project: harmless to read there.
  writeFileSync(join(project, 'admin.token'), 'decoy\n');
  writeFileSync(join(project, 'id_ed25519'), 'decoy\n');
  hookEnv = {
    ...d.env,
    HOME: home,
    GATEHOUSE_HOOK_WAIT_MS: '300',
    GATEHOUSE_HOOK_FALLBACK: 'deny',
  };
}, 60_000);

afterAll(async () => {
  admin?.close();
  await d?.stop();
  rmSync(root, { recursive: true, force: true });
});

interface Attempt {
  decision: string;
  reason: string;
  /** What bash printed when the hook allowed the call and the test ran it where the CLI would. */
  ran?: string;
}

/** Runs `command` with bash in `dir`, as the agent's shell tool would. */
const perform = (command: string, dir: string): string =>
  spawnSync('bash', ['-c', command], { cwd: dir, encoding: 'utf8' }).stdout;

/** A Gemini CLI shell call through the real `gatehouse hook gemini`; run when allowed. */
async function gemini(command: string, dirPath?: string, env = hookEnv): Promise<Attempt> {
  const payload = {
    session_id: 'rundir-gemini',
    transcript_path: join(root, 'g.json'),
    cwd: project,
    hook_event_name: 'BeforeTool',
    timestamp: new Date().toISOString(),
    tool_name: 'run_shell_command',
    tool_input: { command, ...(dirPath !== undefined ? { dir_path: dirPath } : {}) },
  };
  const r = await runCli(env, ['hook', 'gemini'], JSON.stringify(payload));
  const out = JSON.parse(r.stdout) as { decision: string; reason: string };
  // Gemini CLI 0.61.0: `path.resolve(targetDir, dir_path)`.
  const dir = dirPath ? resolve(project, dirPath) : project;
  return { ...out, ...(out.decision === 'allow' ? { ran: perform(command, dir) } : {}) };
}

/** An OpenCode tool call through the real `gatehouse hook opencode`. */
async function opencodeTool(
  tool: string,
  args: Record<string, unknown>,
): Promise<{ decision: string; reason: string }> {
  const payload = {
    event: 'tool.execute.before',
    tool,
    sessionID: 'rundir-opencode',
    callID: `call_${Math.random().toString(36).slice(2)}`,
    args,
    directory: project,
  };
  const r = await runCli(hookEnv, ['hook', 'opencode'], JSON.stringify(payload));
  return JSON.parse(r.stdout) as { decision: string; reason: string };
}

/** An OpenCode bash call through the real hook; run when allowed. */
async function opencode(command: string, workdir?: string): Promise<Attempt> {
  const out = await opencodeTool('bash', {
    command,
    ...(workdir !== undefined ? { workdir } : {}),
  });
  // OpenCode 1.18.33 resolves workdir against the session's directory.
  const dir = workdir ? resolve(project, workdir) : project;
  return { ...out, ...(out.decision === 'allow' ? { ran: perform(command, dir) } : {}) };
}

describe('a shell call in a directory of its own is judged there (real hook, real daemon)', () => {
  it("Gemini CLI: `cat admin.token` in Gatehouse's home asks (critical), and the token is never read", async () => {
    writeFileSync(join(ghome, 'admin.token.copy'), `${TOKEN}\n`);
    for (const dir of [ghome, relative(project, ghome)]) {
      const a = await gemini('cat admin.token.copy', dir);
      expect(a.decision, a.reason).toBe('deny');
      expect(a.ran).toBeUndefined();
    }
    // Asked, not refused: it stays in the queue for a person (the hook's wait ran out).
    const { requests } = await admin.call('pending.list', {});
    const filed = requests.find((r) => r.agent === 'gemini')!;
    expect(filed.rule).toBe('protected:gatehouse');
    expect(filed.risk).toBe('critical');
    // The person sees where it runs.
    expect(filed.description).toContain(`[in ${ghome}]`);
    expect(filed.context).toMatchObject({ cwd: project, workdir: ghome });
    // The same command in the project reads the decoy there: auto, as before.
    const plain = await gemini('cat admin.token');
    expect(plain.decision, plain.reason).toBe('allow');
    expect(plain.ran).toBe('decoy\n');
  });

  it('Gemini CLI: a secret read through a relative dir_path asks; a read in a project folder stays auto', async () => {
    const secret = await gemini('cat id_ed25519', '../../.ssh');
    expect(secret.decision, secret.reason).toBe('deny');
    expect(secret.ran).toBeUndefined();
    const inside = await gemini('cat a.ts', 'src');
    expect(inside.decision, inside.reason).toBe('allow');
    expect(inside.ran).toBe('export const a = 1;\n');
  });

  it('OpenCode: a relative workdir is resolved against the directory, not the daemon’s own', async () => {
    const secret = await opencode('cat id_ed25519', '../../.ssh');
    expect(secret.decision, secret.reason).toBe('deny');
    expect(secret.ran).toBeUndefined();
    const inside = await opencode('cat a.ts', 'src');
    expect(inside.decision, inside.reason).toBe('allow');
    expect(inside.ran).toBe('export const a = 1;\n');
  });

  it("OpenCode's Gatehouse plugin is Gatehouse's own: writing it asks, by its write tool or bash in its folder", async () => {
    const plugin = join(project, '.opencode/plugin/gatehouse.js');
    mkdirSync(join(project, '.opencode/plugin'), { recursive: true });
    writeFileSync(plugin, '// the installed plugin\n');
    const write = await opencodeTool('write', { filePath: plugin, content: 'export {}' });
    expect(write.decision, write.reason).toBe('deny');
    const broken = await opencode('echo "syntax error (" > gatehouse.js', '.opencode/plugin');
    expect(broken.decision, broken.reason).toBe('deny');
    // Both asked as Gatehouse's own configuration (critical), not as ordinary writes.
    const { requests } = await admin.call('pending.list', {});
    const asked = requests.filter(
      (r) => r.agent === 'opencode' && r.description.includes('gatehouse.js'),
    );
    expect(asked.map((r) => [r.rule, r.risk])).toEqual([
      ['protected:change_gatehouse_policy', 'critical'],
      ['protected:change_gatehouse_policy', 'critical'],
    ]);
    expect(readFileSync(plugin, 'utf8')).toBe('// the installed plugin\n');
  });

  it("Codex: a call's workdir (Codex's payload cwd) does not move the session's project", async () => {
    writeFileSync(join(home, '.bashrc'), 'export SECRET=1\n');
    // Codex runs its hook in the session's directory; the payload's cwd is the call's workdir.
    const codex = (cwd: string, command: string) =>
      new Promise<string>((done, fail) => {
        const payload = {
          session_id: 'rundir-codex',
          turn_id: 't1',
          transcript_path: null,
          cwd,
          hook_event_name: 'PreToolUse',
          model: 'gpt-5',
          permission_mode: 'bypassPermissions',
          tool_name: 'Bash',
          tool_input: { command },
          tool_use_id: `call_${Math.random().toString(36).slice(2)}`,
        };
        const child = spawn(process.execPath, [CLI, 'hook', 'codex'], {
          cwd: project,
          env: hookEnv,
        });
        let out = '';
        child.stdout.on('data', (b: Buffer) => (out += b.toString()));
        child.on('error', fail);
        child.on('close', () => done(out));
        child.stdin.end(JSON.stringify(payload));
      });
    const fromHome = await codex(home, 'cat .bashrc');
    expect(fromHome).toContain('"permissionDecision":"deny"');
    // Judged in the workdir, against the project: a read outside it asks.
    const { requests } = await admin.call('pending.list', {});
    const asked = requests.find((r) => r.agent === 'codex')!;
    expect(asked.action).toBe('read_file');
    const { sessions } = await admin.call('sessions.list', { agent: 'codex' });
    expect(sessions.map((s) => s.project)).toEqual([project]);
    // A read in the project from a workdir inside it stays auto.
    expect(await codex(join(project, 'src'), 'cat a.ts')).not.toContain('"deny"');
  });

  it('with Gatehouse down the built-in table judges the command in dir_path too', async () => {
    const down = {
      ...hookEnv,
      GATEHOUSE_SOCKET: join(root, 'gone', 'gatehouse.sock'),
      GATEHOUSE_HOOK_FALLBACK: 'builtin',
    };
    const token = await gemini('cat admin.token.copy', ghome, down);
    expect(token.decision, token.reason).toBe('deny');
    expect(token.reason).toContain("Gatehouse's own files");
    const inside = await gemini('cat a.ts', 'src', down);
    expect(inside.decision, inside.reason).toBe('allow');
  });

  it('an edited call is judged where it will run: a dir_path the person adds counts, one they drop does not', async () => {
    const agent = await d.agent({ agent: 'gemini', project });
    try {
      const asked = agent.gate({
        client: 'gemini',
        event: 'BeforeTool',
        tool: 'run_shell_command',
        input: { command: 'git push origin main', dir_path: 'src' },
        cwd: project,
        wait: true,
        timeoutMs: 20_000,
      });
      const filed = await waitForPending(admin, (r) => r.action === 'git_push');
      // Into Gatehouse's home: riskier than the push, so it needs confirming.
      const riskier = { command: 'cat admin.token.copy', dir_path: ghome };
      const refused = await admin
        .call('decide', {
          requestId: filed.requestId,
          decision: 'approve',
          edit: { input: riskier },
        })
        .catch((e: unknown) => e);
      expect(refused instanceof RpcError && refused.code).toBe(-32602);
      expect(String((refused as Error).message)).toMatch(
        /riskier than the one asked.*protected:gatehouse/,
      );
      // Without dir_path Gemini CLI runs it in the project: the decoy, not riskier.
      await admin.call('decide', {
        requestId: filed.requestId,
        decision: 'approve',
        edit: { input: { command: 'cat admin.token' } },
      });
      const answer = await asked;
      expect(answer.outcome).toBe('allow');
      expect(answer.updatedInput).toEqual({ command: 'cat admin.token' });
    } finally {
      agent.close();
    }
  });
});
