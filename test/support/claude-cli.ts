import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './daemon';

/**
 * Running the real Claude Code CLI (`@anthropic-ai/claude-code`, pinned in
 * test/agents/package.json) offline: `claude -p` against a scripted model server on
 * 127.0.0.1, in a temporary HOME.
 */
export const CLAUDE = join(ROOT, 'test', 'agents', 'node_modules', '.bin', 'claude');

export interface ClaudeRun {
  code: number;
  stdout: string;
  stderr: string;
  seconds: number;
}

export interface ClaudeOptions {
  cwd: string;
  home: string;
  modelUrl: string;
  /** Gatehouse's environment (GATEHOUSE_HOME, GATEHOUSE_SOCKET) and anything else. */
  env: NodeJS.ProcessEnv;
  args?: string[];
  mode?: string;
}

/** Runs `claude -p` to its end. */
export function runClaude(o: ClaudeOptions): Promise<ClaudeRun> {
  const env: NodeJS.ProcessEnv = {
    ...o.env,
    HOME: o.home,
    ANTHROPIC_BASE_URL: o.modelUrl,
    ANTHROPIC_API_KEY: 'sk-ant-e2e-test',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    // bypassPermissions refuses to start as root outside a sandbox; this machine is one.
    IS_SANDBOX: '1',
  };
  delete env.CLAUDE_CODE_SESSION_ID;
  delete env.CLAUDECODE;
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(
      CLAUDE,
      [
        '-p',
        'Do the scripted work.',
        '--permission-mode',
        o.mode ?? 'bypassPermissions',
        '--output-format',
        'json',
        ...(o.args ?? []),
      ],
      { cwd: o.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code: code ?? -1, stdout, stderr, seconds: (Date.now() - started) / 1000 }),
    );
  });
}

export const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** The commit the bare remote's main points at, or undefined when nothing was pushed. */
export function remoteHead(remote: string): string | undefined {
  try {
    return git(remote, 'rev-parse', '--verify', '-q', 'refs/heads/main');
  } catch {
    return undefined;
  }
}

/** A project with one commit and a local bare remote `origin`. */
export function gitProject(project: string, remote: string): void {
  git(join(remote, '..'), 'init', '-q', '--bare', '-b', 'main', remote);
  git(project, 'init', '-q', '-b', 'main');
  git(project, 'config', 'user.email', 'dev@example.com');
  git(project, 'config', 'user.name', 'Dev');
  git(project, 'remote', 'add', 'origin', remote);
}
