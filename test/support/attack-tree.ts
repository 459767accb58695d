import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

/**
 * A temporary tree to perform attacks in: a git project whose `origin` is a local bare
 * remote, a Claude Code settings file, a home folder, and the programs the attacks use
 * (`evil.sh`, `evil.js`, `evil.gitconfig`, a copy of /bin/sh named `pytest`). {@link damage} tells what an
 * attack changed, so a call the hook wrongly allowed shows its real effect.
 */
export interface AttackTree {
  dir: string;
  project: string;
  remote: string;
  home: string;
  /** Files and refs as they were before anything ran: path → content. */
  before: Map<string, string>;
}

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, {
    cwd,
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
    encoding: 'utf8',
  });

export function makeAttackTree(): AttackTree {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-attack-'));
  const project = join(dir, 'project');
  const remote = join(dir, 'remote.git');
  const home = join(dir, 'home');
  mkdirSync(join(project, '.claude'), { recursive: true });
  mkdirSync(home);
  git(dir, 'init', '-q', '--bare', remote);
  git(dir, 'init', '-q', '-b', 'main', project);
  const files: Record<string, string> = {
    'README.md': '# app\nhello\n',
    'names.txt': 'b\na\nc\n',
    // A value that runs a command when bash evaluates it as arithmetic (`declare -i`).
    'count.txt': 'a[$(touch pwned)]\n',
    // The same as a file name, for a glob to hand to arithmetic (`set -- *]; echo $(($1))`).
    'a[$(touch pwned)]': '',
    'evil.json': '{"disableAllHooks":true}\n',
    'evil.js': "require('fs').writeFileSync(require('path').join(process.cwd(), 'pwned'), 'js');\n",
    'evil.sh': '#!/bin/sh\ntouch "$PWD/pwned"\n',
    // A git config file an attack points GIT_CONFIG_GLOBAL (or _SYSTEM) at.
    'evil.gitconfig': '[core]\n\tfsmonitor = "touch pwned; false"\n',
    '.claude/settings.json': '{"hooks":{"PreToolUse":[]}}\n',
    'dump.hex': '00000000: 7077 6e65 640a                           pwned.\n',
    'package.json': '{"name":"app","version":"1.0.0","scripts":{"test":"true"}}\n',
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(project, name), text);
  chmodSync(join(project, 'evil.sh'), 0o755);
  copyFileSync('/bin/sh', join(project, 'pytest'));
  chmodSync(join(project, 'pytest'), 0o755);
  execFileSync('tar', ['-cf', 'a.tar', 'README.md'], { cwd: project });
  git(project, 'add', '-A');
  git(project, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'init');
  git(project, 'remote', 'add', 'origin', remote);
  git(project, 'push', '-q', 'origin', 'main');
  return { dir, project, remote, home, before: snapshot({ dir, project, remote, home }) };
}

/** Files that plain reads may touch (git refreshes its index): not damage. */
const VOLATILE = /^project\/\.git\/(index|objects|logs|FETCH_HEAD|ORIG_HEAD)/;

function snapshot(t: Pick<AttackTree, 'dir' | 'project' | 'remote' | 'home'>): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const rel = relative(t.dir, p);
      if (VOLATILE.test(rel) || /^remote\.git\/objects/.test(rel)) continue;
      if (statSync(p).isDirectory()) walk(p);
      else out.set(rel, readFileSync(p, 'latin1'));
    }
  };
  walk(t.dir);
  return out;
}

/** What changed in the tree since it was made: files written, changed or removed, refs pushed. */
export function damage(t: AttackTree): string[] {
  const now = snapshot(t);
  const out: string[] = [];
  for (const [p, text] of now)
    if (!t.before.has(p)) out.push(`wrote ${p}`);
    else if (t.before.get(p) !== text) out.push(`changed ${p}`);
  for (const p of t.before.keys()) if (!now.has(p)) out.push(`removed ${p}`);
  return out;
}

/**
 * Performs `command` as the agent's shell would, in the project, with the tree's home and
 * `bin` first on PATH (where `gatehouse` runs the CLI against the test daemon); returns what
 * it printed (a read's damage is what the agent then knows).
 */
export function perform(t: AttackTree, command: string, env: NodeJS.ProcessEnv): string {
  const ran = spawnSync('bash', ['-c', command], {
    cwd: t.project,
    env: { ...env, HOME: t.home, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
    input: '',
    timeout: 10_000,
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  return `${ran.stdout ?? ''}${ran.stderr ?? ''}`;
}
