import type { ActionSpec } from './action-spec';
import { rankCandidates, severity } from './action-spec';
import { INTERPRETERS, tarAction } from './commands/code-runners';
import { own } from './commands/options';
import { gitAction, gitFileReads } from './commands/git';
import { jsPackageManagerAction, npxAction, pythonPmAction } from './commands/package-managers';
import { PYTHON_RUNNER_MODULES, TEST_RUNNERS } from './commands/runners';
import {
  JS_PACKAGE_MANAGERS,
  KNOWN_PROGRAMS,
  NPX,
  programName,
  PYTHON_PACKAGE_MANAGERS,
  TASK_RUNNERS,
} from './commands/vet';
import type { ShellCommand, ShellParser } from './shell-syntax';
import { lnCall } from './tree-writes';
import { dateArgs } from './commands/date-args';

/**
 * Maps a Bash tool command to Gatehouse actions: one candidate per simple command (including
 * those inside substitutions and `bash -c`), most restrictive first. `npm test && git push`
 * gives `git_push` then `run_tests`. Anything not recognised is `run_command`, which asks by
 * default. Auto is an allowlist (commands/): a read, search or test run keeps its action only
 * when its program, prefixes, options and variables are known harmless; otherwise the
 * analysis marks it `unproven` with the reason, which (like any construct whose effect cannot
 * be known statically, see shell-analysis.ts) becomes a `run_command` candidate naming it, and
 * the daemon makes any action carrying such a command ask with the reason.
 */
export function bashActions(command: string, parser: ShellParser): ActionSpec[] {
  const analysis = parser.analyse(command);
  const candidates: ActionSpec[] = [];
  for (const cmd of analysis.commands) commandActions(cmd, candidates);
  for (const o of analysis.opaque)
    candidates.push({ action: 'run_command', target: `${o.construct}: ${o.text}` });
  const ranked = rankCandidates(candidates);
  return ranked.length ? ranked : [{ action: 'read_file', target: 'shell built-ins only' }];
}

const HARMLESS_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);

const base = (word: string): string => word.replace(/^.*\//, '');
const operands = (args: string[]): string[] => args.filter((a) => !a.startsWith('-'));
const first = (args: string[]): string | undefined => operands(args)[0];

/** Words that only modify how the next command runs. */
const WRAPPERS = new Set([
  'nohup',
  'time',
  'nice',
  'command',
  'exec',
  'stdbuf',
  'ionice',
  'builtin',
  'then',
  'do',
  'else',
  'elif',
  '!',
  '{',
  '}',
]);
const CONTROL_HEADERS = new Set(['for', 'case', 'select', 'function', 'done', 'fi', 'esac', 'in']);
const NOOP = new Set([
  'echo',
  'printf',
  'true',
  'false',
  ':',
  'cd',
  'pushd',
  'popd',
  'export',
  'set',
  'unset',
  'type',
  'which',
  'whereis',
  'date',
  'whoami',
  'id',
  'hostname',
  'uname',
  'printenv',
  'sleep',
  'wait',
  'test',
  '[',
  '[[',
  ']]',
  'read',
  'exit',
  'return',
  'history',
  'alias',
  'clear',
  'tput',
  'pwd',
  'local',
  'declare',
  'shift',
  'break',
  'continue',
  'nproc',
]);
const DELETERS = new Set(['rm', 'rmdir', 'unlink', 'shred', 'srm', 'trash', 'trash-put']);
const WRITERS = new Set([
  'touch',
  'mkdir',
  'cp',
  'mv',
  'ln',
  'install',
  'tee',
  'truncate',
  'rsync',
  'dd',
  'unzip',
]);
const EDITORS = new Set(['patch', 'ed', 'ex']);
const FETCHERS = new Set([
  'curl',
  'wget',
  'http',
  'https',
  'httpie',
  'xh',
  'aria2c',
  'scp',
  'ssh',
  'sftp',
  'nc',
  'telnet',
]);
const MAILERS = new Set(['mail', 'mailx', 'sendmail', 'mutt', 'msmtp']);
const PERMISSIONS = new Set(['chmod', 'chown', 'chgrp', 'setfacl', 'chattr']);
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'fish']);
const SYSTEM_PMS = new Set([
  'apt',
  'apt-get',
  'yum',
  'dnf',
  'brew',
  'apk',
  'pacman',
  'zypper',
  'port',
  'snap',
  'choco',
  'winget',
  'conda',
  'mamba',
  'pipx',
  'gem',
]);
const PM_INSTALL = new Set([
  'install',
  'i',
  'add',
  'ci',
  'update',
  'upgrade',
  'up',
  'uninstall',
  'remove',
  'rm',
  'un',
  'reinstall',
  'link',
  'sync',
]);
const DEPLOYERS: Readonly<Record<string, RegExp>> = {
  kubectl:
    /^(apply|create|delete|rollout|scale|set|patch|replace|edit|label|annotate|drain|cordon)$/,
  helm: /^(install|upgrade|uninstall|rollback|delete)$/,
  terraform: /^(apply|destroy|import)$/,
  tofu: /^(apply|destroy|import)$/,
  pulumi: /^(up|destroy|update)$/,
  vercel: /^(deploy|--prod|promote|alias)$/,
  netlify: /^deploy$/,
  fly: /^(deploy|launch)$/,
  flyctl: /^(deploy|launch)$/,
  firebase: /^deploy$/,
  serverless: /^deploy$/,
  sls: /^deploy$/,
  wrangler: /^(deploy|publish)$/,
  railway: /^up$/,
  kamal: /^deploy$/,
  eb: /^deploy$/,
  cap: /^.*deploy.*$/,
  heroku: /^(releases:.*|container:release|deploy.*|ps:scale)$/,
  docker: /^push$/,
  podman: /^push$/,
  twine: /^upload$/,
  'ansible-playbook': /./,
};

function commandActions(cmd: ShellCommand, out: ActionSpec[]): void {
  for (const r of cmd.redirects) {
    if (HARMLESS_TARGETS.has(r.target) || !r.target) continue;
    if (r.kind === 'write') out.push({ action: 'write_file', paths: [r.target] });
    else if (r.kind === 'read' && !r.target.startsWith('<('))
      out.push({ action: 'read_file', paths: [r.target] });
  }
  let words = cmd.words;
  let elevated = false;
  // Peel wrappers: sudo, env, timeout, xargs, nohup, …
  for (;;) {
    const w = words[0];
    if (w === undefined) return;
    // Only the real program is a wrapper or a shell: `./nohup`, `./bash` may be anything.
    const b = programName(w);
    // `command -v node` only says where a program is.
    if (b === 'command' && /^-[vV]$/.test(words[1] ?? '')) return;
    if (WRAPPERS.has(b)) words = words.slice(1);
    else if (b === 'sudo' || b === 'doas') {
      elevated = true;
      words = skipOptions(words.slice(1), /^-[ugCDhprt]$/);
    } else if (b === 'env') {
      const rest = skipOptions(words.slice(1), /^-[uSC]$/);
      words = rest.slice(firstNonAssignment(rest));
    } else if (b === 'timeout') words = skipOptions(words.slice(1), /^-[sk]$/).slice(1);
    else if (b === 'xargs') words = skipOptions(words.slice(1), /^-[IEdLnPs]$/);
    else if (b === 'while' || b === 'until' || b === 'if') words = words.slice(1);
    else break;
  }
  if (elevated) out.push({ action: 'run_command', target: 'sudo' });
  const [program, ...args] = words as [string, ...string[]];
  const name = programName(program);
  if (CONTROL_HEADERS.has(name)) return;
  // The commands of `bash -c '…'` and `eval '…'` are in the analysis already.
  if (SHELLS.has(name)) {
    if (args.some((a) => /^-\w*c\w*$/.test(a))) return;
    return void out.push({ action: 'run_command', target: name });
  }
  if (name === 'eval') return;
  const found = programActions(program, args);
  // An unproven command is a `run_command` naming the reason (from the analysis); only
  // what is more restrictive than that is kept.
  const runCommand = severity('run_command');
  out.push(...(cmd.unproven ? found.filter((f) => severity(f.action) > runCommand) : found));
}

/**
 * What `ln` writes: the links, not what they point at (the path scan judges that from the
 * link's folder, shared/tools/tree-writes.ts). A hard link's file keeps its place: the same
 * file is written through either name.
 */
function linkNames(program: string, args: string[]): string[] {
  const call = lnCall([program, ...args]);
  if (!call?.symbolic) return operands(args);
  if (call.place !== undefined) return [call.place];
  const only = call.targets[0];
  return only === undefined ? [] : [base([program, ...args][only]!)];
}

const clip = (s: string): string => (s.length > 200 ? `${s.slice(0, 199)}…` : s);

/** The arguments of a Gatehouse CLI run (`gatehouse …`, `node …/gatehouse.js …`), else undefined. */
function gatehouseArgs(name: string, args: string[]): string[] | undefined {
  if (/^gatehouse(\.[cm]?js)?$/.test(name)) return args;
  if (name === 'node' || name === 'nodejs') {
    const script = args.findIndex((a) => !a.startsWith('-'));
    if (script >= 0 && /(^|\/)gatehouse(\.[cm]?js)?$/.test(args[script]!))
      return args.slice(script + 1);
  }
  if (NPX.has(name) || JS_PACKAGE_MANAGERS.has(name)) {
    const ops = args.filter((a) => !a.startsWith('-'));
    const at = /^(exec|dlx|x)$/.test(ops[0] ?? '') ? 1 : NPX.has(name) ? 0 : -1;
    if (at >= 0 && /^(@[\w.-]+\/)?gatehouse$/.test(ops[at] ?? ''))
      return args.slice(args.indexOf(ops[at]!) + 1);
  }
  return undefined;
}

/** Gatehouse sub-commands that only print and need no admin token. */
const GATEHOUSE_READ_ONLY = /^(--help|-h|help|--version|-V|version|socket-path)$/;
/** Gatehouse sub-commands an agent runs in the agent role (its hook, its MCP server). */
const GATEHOUSE_AGENT_ROLE = /^(hook|mcp|opencode-bridge)$/;

/**
 * Running Gatehouse from an agent: anything that needs the admin token or stops, starts or
 * reconfigures it (rules, approve, trust, kill, hook --install …) is `change_gatehouse_policy`,
 * critical; only printing help, the version or the socket path is harmless.
 */
function gatehouseAction(gatehouse: string[]): ActionSpec | undefined {
  const sub = gatehouse[0] ?? '--help';
  if (GATEHOUSE_READ_ONLY.test(sub) && gatehouse.length <= 2) return undefined;
  const installs = gatehouse.some((a) => /^--(install|uninstall)$/.test(a));
  if (GATEHOUSE_AGENT_ROLE.test(sub) && !installs)
    return { action: 'run_command', target: clip(`gatehouse ${gatehouse.join(' ')}`) };
  return { action: 'change_gatehouse_policy', target: clip(`gatehouse ${gatehouse.join(' ')}`) };
}

/** Signalling processes may stop Gatehouse's daemon: `kill PID`, `pkill gatehouse`, `killall node`. */
const SIGNALLERS = new Set(['kill', 'pkill', 'killall', 'skill', 'fuser', 'pgrep']);
function signalAction(name: string, args: string[]): ActionSpec | undefined {
  // `pgrep -a` prints every matching process's command line, as `ps -ef` (which asks) does:
  // a person's program may have been given a password or a token in its arguments.
  if (name === 'pgrep' && args.some((a) => a === '--list-full' || /^-[a-zA-Z]*a/.test(a)))
    return { action: 'run_command', target: clip(`pgrep ${args.join(' ')}`) };
  if (name === 'pgrep' || (name === 'fuser' && !args.some((a) => /^-[a-zA-Z]*k/.test(a))))
    return undefined;
  // Shell jobs (`kill %1`) are the agent's own.
  if (name === 'kill' && args.length && args.every((a) => /^%\d*$|^-(l|L|\d+|[A-Z]+)$/.test(a)))
    return { action: 'run_command', target: clip(`kill ${args.join(' ')}`) };
  return {
    action: 'change_gatehouse_policy',
    target: clip(`${name} ${args.join(' ')} (may signal Gatehouse's daemon)`),
  };
}

function firstNonAssignment(words: string[]): number {
  const i = words.findIndex((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  return i === -1 ? words.length : i;
}

/** Drops leading options; options matching `withValue` also drop the word after them. */
function skipOptions(words: string[], withValue: RegExp): string[] {
  let i = 0;
  while (i < words.length && words[i]!.startsWith('-')) i += withValue.test(words[i]!) ? 2 : 1;
  return words.slice(i);
}

function programActions(word: string, args: string[]): ActionSpec[] {
  const name = programName(word);
  const files = operands(args);
  const withPaths = (action: string, paths = files): ActionSpec =>
    paths.length ? { action, paths } : { action };
  const gatehouse = gatehouseArgs(base(word), args);
  if (gatehouse) {
    const found = gatehouseAction(gatehouse);
    return found ? [found] : [];
  }
  if (SIGNALLERS.has(name)) {
    const signal = signalAction(name, args);
    return signal ? [signal] : [];
  }
  if (name === 'date') {
    const { files } = dateArgs(args);
    return files.length ? [{ action: 'read_file', paths: files }] : [];
  }
  if (NOOP.has(name)) return [];
  if (name === 'git') {
    const reads = gitFileReads(args);
    return reads.length
      ? [gitAction(args), { action: 'read_file', paths: reads }]
      : [gitAction(args)];
  }
  if (name === 'gh') return [ghAction(args)];
  if (JS_PACKAGE_MANAGERS.has(name)) return [jsPackageManagerAction(name, args)];
  if (NPX.has(name)) return [npxAction(args)];
  if (PYTHON_PACKAGE_MANAGERS.has(name)) return [pythonPmAction(name, args)];
  if (SYSTEM_PMS.has(name)) {
    return PM_INSTALL.has(first(args) ?? '')
      ? [{ action: 'install_package', target: `${name} ${files.slice(1).join(' ')}`.trim() }]
      : [{ action: 'run_command', target: name }];
  }
  if (
    name === 'cargo' ||
    name === 'go' ||
    name === 'dotnet' ||
    name === 'deno' ||
    name === 'mix' ||
    name === 'swift'
  )
    return [toolchainAction(name, args)];
  if (TASK_RUNNERS.has(name)) return [taskRunnerAction(name, args)];
  if (INTERPRETERS.has(name)) return [interpreterAction(name, args)];
  if (TEST_RUNNERS.has(name))
    return args.includes('--fix')
      ? [withPaths('edit_file', [])]
      : [{ action: 'run_tests', target: name }];
  if (name === 'prettier' || name === 'black' || name === 'gofmt' || name === 'rustfmt') {
    return args.some((a) => /^(--write|-w|--fix)$/.test(a)) || name === 'black'
      ? [withPaths('edit_file')]
      : [{ action: 'run_tests', target: name }];
  }
  if (name === 'find') {
    if (
      args.includes('-delete') ||
      args.some(
        (a, i) => (a === '-exec' || a === '-execdir') && DELETERS.has(base(args[i + 1] ?? '')),
      )
    ) {
      return [withPaths('delete_files', files.slice(0, 1))];
    }
    return args.includes('-exec') || args.includes('-execdir')
      ? [{ action: 'run_command', target: 'find -exec' }]
      : [withPaths('list_files', findStarts(args))];
  }
  if (DELETERS.has(name)) return [withPaths('delete_files')];
  if (name === 'sed' && args.some((a) => /^(-i|--in-place)/.test(a) || /^-[a-zA-Z]*i/.test(a)))
    return [withPaths('edit_file', files.slice(1))];
  if (name === 'tar' || name === 'bsdtar' || name === 'gtar') return [tarAction(args)];
  const known = KNOWN_PROGRAMS.get(name);
  if (known)
    return [known.paths ? withPaths(known.action, known.paths(args)) : { action: known.action }];
  if (EDITORS.has(name)) return [withPaths('edit_file')];
  if (name === 'ln') return [withPaths('write_file', linkNames(word, args))];
  if (WRITERS.has(name))
    return [
      withPaths(
        'write_file',
        name === 'dd' ? args.filter((a) => a.startsWith('of=')).map((a) => a.slice(3)) : files,
      ),
    ];
  if (FETCHERS.has(name)) {
    const url = args.find((a) => /^[a-z]+:\/\//i.test(a)) ?? files[0];
    return [url ? { action: 'web_fetch', target: url } : { action: 'web_fetch' }];
  }
  if (MAILERS.has(name))
    return [{ action: 'send_email', ...(files[0] ? { target: files[0] } : {}) }];
  if (PERMISSIONS.has(name)) return [withPaths('modify_permissions', files.slice(1))];
  if (name === 'systemctl' || name === 'service' || name === 'launchctl')
    return [{ action: 'start_service', target: args.join(' ') }];
  if (name === 'gcloud' || name === 'aws' || name === 'az') return [cloudAction(name, args)];
  const deploy = own(DEPLOYERS, name);
  if (deploy) {
    const sub = name === 'vercel' && !args.length ? '--prod' : args.find((a) => deploy.test(a));
    if (sub !== undefined || name === 'ansible-playbook')
      return [{ action: 'deploy', target: `${name} ${args.join(' ')}`.trim() }];
    return [{ action: 'run_command', target: name }];
  }
  return [{ action: 'run_command', target: name }];
}

/** find's starting points: the words before its first expression. */
function findStarts(args: string[]): string[] {
  const starts: string[] = [];
  for (const a of args) {
    if (/^-[LHP]$/.test(a)) continue;
    if (a.startsWith('-') || a === '(' || a === '!') break;
    starts.push(a);
  }
  return starts;
}

/** `python -m pytest` runs tests, `node --version` prints; any other interpreter call runs code. */
function interpreterAction(name: string, args: string[]): ActionSpec {
  if (args.length === 1 && /^(--version|-V|-v)$/.test(args[0]!) && name !== 'perl')
    return { action: 'read_file', target: `${name} ${args[0]}` };
  if (/^(python|python2|python3|pypy3?)$/.test(name)) {
    const m = args.indexOf('-m');
    const plain = m >= 0 && args.slice(0, m).every((a) => /^-[BuqE]+$/.test(a));
    if (plain && PYTHON_RUNNER_MODULES.test(args[m + 1] ?? ''))
      return { action: 'run_tests', target: `${name} -m ${args[m + 1]}` };
    if (plain && args[m + 1] === 'pip') return pythonPmAction('pip', args.slice(m + 2));
  }
  return { action: 'run_command', target: name };
}

function ghAction(args: string[]): ActionSpec {
  const [group = '', verb = ''] = operands(args);
  const target = `gh ${group} ${verb}`.trim();
  if (group === 'pr' && verb === 'create') return { action: 'create_pull_request', target };
  if (group === 'pr' && verb === 'merge') return { action: 'git_push', target };
  if (group === 'issue' && verb === 'create') return { action: 'create_issue', target };
  if ((group === 'pr' || group === 'issue') && /^(comment|review|close|reopen|edit)$/.test(verb))
    return { action: 'create_comment', target };
  if (group === 'release' && verb === 'create') return { action: 'deploy', target };
  if (/^(view|list|status|diff|checks|search)$/.test(verb) || group === 'search' || group === 'api')
    return { action: 'web_fetch', target };
  return { action: 'run_command', target };
}

function toolchainAction(name: string, args: string[]): ActionSpec {
  const sub = operands(args)[0] ?? '';
  if (/^(test|check|clippy|vet|fmt-check)$/.test(sub))
    return { action: 'run_tests', target: `${name} ${sub}` };
  if (
    (name === 'cargo' && /^(add|install|remove|update)$/.test(sub)) ||
    (name === 'go' && /^(get|install)$/.test(sub))
  ) {
    return { action: 'install_package', target: `${name} ${operands(args).join(' ')}` };
  }
  if ((name === 'cargo' && sub === 'publish') || (name === 'dotnet' && sub === 'nuget'))
    return { action: 'deploy', target: `${name} ${sub}` };
  if (name === 'dotnet' && sub === 'add')
    return { action: 'install_package', target: `${name} ${operands(args).join(' ')}` };
  return { action: 'run_command', target: `${name} ${sub}`.trim() };
}

function taskRunnerAction(name: string, args: string[]): ActionSpec {
  const targets = operands(args);
  if (targets.some((t) => /deploy|release|publish/.test(t)))
    return { action: 'deploy', target: `${name} ${targets.join(' ')}` };
  if (targets.length && targets.every((t) => /^(test|tests|check|lint|verify|spec)$/.test(t)))
    return { action: 'run_tests', target: `${name} ${targets.join(' ')}` };
  return { action: 'run_command', target: `${name} ${targets.join(' ')}`.trim() };
}

function cloudAction(name: string, args: string[]): ActionSpec {
  const ops = operands(args);
  const joined = ops.join(' ');
  if (
    ops.includes('deploy') ||
    ops.some((o) => /^(update-|create-|delete-|put-)/.test(o)) ||
    (ops[0] === 's3' && /^(cp|sync|mv|rm)$/.test(ops[1] ?? ''))
  ) {
    return { action: 'deploy', target: `${name} ${joined}` };
  }
  return { action: 'web_fetch', target: `${name} ${ops.slice(0, 2).join(' ')}` };
}
